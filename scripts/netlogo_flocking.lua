-- scripts/netlogo_flocking.lua — NetLogo's Flocking model (Wilensky 1998) with its default settings: 300 birds in a 71 x 71 wrapped world come to fly as one.
-- Each tick every bird separates from its nearest flock-mate when closer than 1 patch, else aligns
-- (at most 5 degrees) and coheres (at most 3 degrees) with those within 3 patches, then moves one
-- patch (behaviours/netlogo_flocking.lua). Headings start at random, so the telemetry's
-- polarisation starts near 0 and rises toward 1 as the flocks merge.
-- Try: flockbox --headless --steps 3000 --every 100 --csv netlogo.csv scripts/netlogo_flocking.lua
return {
  name = "NetLogo Flocking (Wilensky 1998)",
  world = { width = 71, height = 71, dt = 1, bounds = "wrap",
    update = "semi_implicit" }, -- each bird moves by its new velocity, one patch a tick
  species = {
    {
      name = "bird", count = 300,
      spawn = { speed = { 1, 1 } },
      body_length = 0.5, collide = false, -- NetLogo's turtles pass through each other
      max_speed = 1, min_speed = 1, cruise_speed = 1, max_accel = 10,
      vision = { radius = 3, fov = 360, separation = 0 },
      draw_size = 7,
      colour = { 240, 200, 60 },
      rules = { "netlogo_flocking" },
    },
  },
}
