return {
  name = "Table 2: ghost-like",
  world = { width = 200, height = 200, dt = 0.05, bounds = "clamp",
    update = "euler" }, -- Gompert eq. 1: moved by the velocity it had
  goals = { goal = { 100, 100 } },
  species = {
    {
      name = "herd", count = 12,
      spawn = { area = { 20, 20, 180, 180 }, speed = 0 },
      body_length = 2, max_speed = 8, cruise_speed = 5.6, max_accel = 16,
      vision = { radius = 0 },
      collide = false,
      accumulator = "prioritised",
      colour = { 210, 210, 240 },
      rules = {
        { "seek_goal", params = { goal = "goal" } },
      },
    },
  },
}
