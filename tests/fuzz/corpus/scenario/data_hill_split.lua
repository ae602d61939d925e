return {
  name = "hill split",
  world = { width = 200, height = 200, dt = 0.05, bounds = "clamp" },
  terrain = { png = "terrains/single_hill.png", height = 40 },
  goals = { goal = { 185, 100 } },
  species = {
    {
      name = "herd", count = 12,
      spawn = { around = { 25, 100, 12 }, speed = { 0, 1 }, heading = 0 },
      body_length = 2, max_speed = 8, cruise_speed = 5.6, max_accel = 16,
      vision = { radius = 20, fov = 270, separation = 6 },
      accumulator = "prioritised",
      rules = {
        { "separation_gompert", params = { comfort = 6, danger = 3 } },
        { "alignment_gompert" },
        { "cohesion_gompert" },
        { "seek_goal" },
        { "terrain_drag", drag = true, params = { uphill = 30, downhill = 6 } },
      },
    },
  },
}
