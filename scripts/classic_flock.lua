-- scripts/classic_flock.lua — Reynolds' boids with Parker's three rules and soft bounds.
-- Try: flockbox --headless --steps 2000 --csv out.csv scripts/classic_flock.lua
return {
  name = "Classic flock",
  world = { width = 200, height = 200, dt = 0.05, bounds = "clamp",
    update = "semi_implicit" }, -- Parker moves each boid by its new velocity
  species = {
    {
      name = "boid",
      count = 300,
      spawn = { area = { 20, 20, 180, 180 }, speed = { 2, 8 } },
      body_length = 1.5,
      max_speed = 15, min_speed = 6, max_accel = 20,
      vision = { radius = 12, fov = 270, separation = 3 },
      accumulator = "weighted",
      colour = { 240, 200, 60 },
      rules = {
        -- Parker's own constants (the rules' defaults, at his step of 0.05 s) make tight swarms at
        -- this scale, not a flock: polarisation 0.08 after 75 s (--set boid.cohesion.divisor=100
        -- --set boid.separation.divisor=1). Centring 20 times gentler makes one.
        { "separation", weight = 1, params = { divisor = 20 } },
        { "alignment", weight = 1 },
        { "cohesion", weight = 1, params = { divisor = 2000 } },
        { "soft_bounds", weight = 1 },
      },
    },
  },
}
