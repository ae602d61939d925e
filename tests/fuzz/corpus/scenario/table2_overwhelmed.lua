local function mean_height()
  local n, sum = 0, 0
  for a in fb.agents() do
    n, sum = n + 1, sum + fb.terrain(a.x, a.y)
  end
  return sum / n
end

return {
  name = "Table 2: overwhelmed by terrain",
  world = { width = 300, height = 100, dt = 0.05, bounds = "clamp",
    update = "euler" }, -- Gompert eq. 1: moved by the velocity it had
  terrain = { png = "terrains/ramp.png", height = 72 },
  goals = { goal = { 280, 50 } },
  species = {
    {
      name = "herd", count = 12,
      spawn = { around = { 30, 50, 15 }, speed = { 0, 2 }, heading = 0 },
      body_length = 2, max_speed = 8, cruise_speed = 5.6, max_accel = 16,
      vision = { radius = 20, fov = 270, separation = 6 },
      accumulator = "prioritised",
      colour = { 200, 140, 90 },
      rules = {
        { "separation_gompert", params = { comfort = 6, danger = 3 } },
        { "alignment_gompert" },
        { "cohesion_gompert" },
        { "seek_goal", params = { goal = "goal" } },
        { "terrain_drag", drag = true, params = { uphill = 200, downhill = 40 } },
      },
    },
  },
  metrics = { { "climbed", mean_height } },
}
