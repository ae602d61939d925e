-- scripts/perching_birds.lua — birds that now and then land, sit for a while, and rejoin the flock
-- (Parker, "Boids pseudocode", perching).
-- Seen from above, a bird's height is a number it carries (the perch rule's field `alt`): flying,
-- it glides down slowly; at the ground level set here it lands and sits still for 2 to 6 seconds,
-- then takes off to 30 units up and its flocking rules bring it back to the flock. Parker's
-- rules (separation, alignment, cohesion) and a gentle pull toward the middle keep the flock
-- circling over the field. min_speed is 0 so a perched bird can stop. The CSV counts the birds
-- perched now and the landings so far.
-- Try: flockbox --headless --steps 3000 --csv birds.csv scripts/perching_birds.lua

local landed = {} -- id -> true while perched, to count landings
local landings = 0

return {
  name = "Perching birds",
  world = { width = 200, height = 160, dt = 0.05, bounds = "clamp",
    update = "semi_implicit" }, -- Parker moves each boid by its new velocity
  goals = { roost = { 100, 80 } },
  species = {
    {
      name = "bird", count = 50,
      spawn = { area = { 40, 40, 160, 120 }, speed = { 6, 10 } },
      body_length = 2, max_speed = 12, min_speed = 0, cruise_speed = 9, max_accel = 24,
      vision = { radius = 80, fov = 270, separation = 3 },
      colour = { 230, 230, 235 },
      rules = {
        { "perch", params = { ground = 0, ceiling = 30, sink = 1, perch_min = 2, perch_max = 6, gain = 4 } },
        -- Parker's centring at his own strength pulls these birds into a slow swarm (flying at 4.6
        -- units/s against a cruise of 9); 20 times gentler, with separation to match, they flock.
        { "separation", params = { divisor = 20 } },
        { "alignment", params = { divisor = 16 } },
        { "cohesion", params = { divisor = 2000 } },
        { "tend_to_place", params = { goal = "roost", divisor = 20000, max = 1 } },
        { "soft_bounds", params = { margin = 20, push = 0.025 } },
      },
    },
  },
  on_step = function(step)
    for a in fb.each() do
      local perched = a.perch > 0
      if perched and not landed[a.id] then
        landings = landings + 1
      end
      landed[a.id] = perched -- false, not nil: keys stay, so a steady step allocates nothing
    end
  end,
  metrics = {
    { "perched", function()
        local n = 0
        for a in fb.each() do
          n = n + (a.perch > 0 and 1 or 0)
        end
        return n
      end },
    { "landings", function() return landings end },
  },
}
