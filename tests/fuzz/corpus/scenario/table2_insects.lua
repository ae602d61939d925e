return {
  name = "Table 2: swarm of insects",
  world = { width = 200, height = 200, dt = 0.05, bounds = "clamp",
    update = "euler" }, -- Gompert eq. 1: moved by the velocity it had
  species = {
    {
      name = "insect", count = 12,
      spawn = { around = { 100, 100, 30 }, speed = { 3, 6 } },
      body_length = 0.5, max_speed = 10, min_speed = 5, cruise_speed = 7, max_accel = 40,
      collide = false,
      vision = { radius = 60, fov = 360, separation = 0 },
      accumulator = "prioritised",
      colour = { 230, 220, 120 },
      rules = {
        { "cohesion_gompert", params = { distance = 10 } },
        { "soft_bounds", params = { margin = 10, push = 0.025 } },
      },
    },
  },
}
