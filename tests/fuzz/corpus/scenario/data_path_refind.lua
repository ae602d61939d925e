return {
  world = { width = 200, height = 200, dt = 0.05, bounds = "clamp" },
  paths = { { name = "route", points = { { 100, 100 }, { 160, 100 } }, speed = 0 } },
  species = {
    {
      name = "herd", count = 8,
      spawn = { around = { 100, 100, 4 }, speed = 0 },
      agents = { { 20, 20, 0, 0 } },
      body_length = 1, max_speed = 6, max_accel = 12,
      vision = { radius = 6, fov = 360, separation = 2 },
      accumulator = "prioritised",
      rules = {
        { "refind_path" },
        { "separation_gompert", params = { comfort = 2, danger = 1 } },
        { "cohesion_gompert", params = { distance = 6 } },
      },
    },
  },
}
