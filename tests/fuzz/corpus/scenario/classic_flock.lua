return {
  name = "Classic flock",
  world = { width = 200, height = 200, dt = 0.05, bounds = "clamp",
    update = "semi_implicit" }, -- Parker moves each boid by its new velocity
  species = {
    {
      name = "boid",
      count = 12,
      spawn = { area = { 20, 20, 180, 180 }, speed = { 2, 8 } },
      body_length = 1.5,
      max_speed = 15, min_speed = 6, max_accel = 20,
      vision = { radius = 12, fov = 270, separation = 3 },
      accumulator = "weighted",
      colour = { 240, 200, 60 },
      rules = {
        { "separation", weight = 1, params = { divisor = 20 } },
        { "alignment", weight = 1 },
        { "cohesion", weight = 1, params = { divisor = 2000 } },
        { "soft_bounds", weight = 1 },
      },
    },
  },
}
