local points = {}
for k = 0, 7 do
  local angle = k * math.pi / 4
  points[#points + 1] = { 120 + 70 * math.cos(angle), 120 + 70 * math.sin(angle) }
end

return {
  world = { width = 240, height = 240, dt = 0.05, bounds = "clamp" },
  paths = { { name = "loop", points = points, closed = true, speed = 6 } },
  species = {
    {
      name = "bird", count = 12,
      spawn = { around = { 190, 120, 12 }, speed = { 2, 5 } },
      body_length = 2, max_speed = 10, min_speed = 2, cruise_speed = 7, max_accel = 30,
      vision = { radius = 16, fov = 300, separation = 4 },
      accumulator = "prioritised",
      rules = {
        { "refind_path", params = { path = "loop" } },
        { "separation_gompert", params = { comfort = 5, danger = 2.5 } },
        { "alignment_gompert", params = { gain = 0.5 } },
        { "cohesion_gompert", params = { distance = 40 } },
        { "follow_path", params = { path = "loop", bias = 0.04 } },
      },
    },
  },
}
