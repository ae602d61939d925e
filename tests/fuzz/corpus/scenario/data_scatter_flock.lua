local function spread()
  local n, cx, cy = 0, 0, 0
  for a in fb.agents() do
    n, cx, cy = n + 1, cx + a.x, cy + a.y
  end
  cx, cy = cx / n, cy / n
  local sum = 0
  for a in fb.agents() do
    sum = sum + math.sqrt((a.x - cx) ^ 2 + (a.y - cy) ^ 2)
  end
  return sum / n
end

return {
  name = "A startled flock",
  world = { width = 300, height = 300, dt = 0.05, bounds = "clamp", update = "semi_implicit" },
  species = {
    {
      name = "boid", count = 12,
      spawn = { around = { 150, 150, 15 }, speed = { 4, 6 }, heading = 30 },
      body_length = 1.5, max_speed = 15, min_speed = 6, max_accel = 20,
      vision = { radius = 40, fov = 360, separation = 3 },
      rules = {
        { "separation", params = { divisor = 20 } },
        { "alignment" },
        { "scatter", params = { divisor = 2000, duration = 3, multiplier = -20 } },
        { "soft_bounds", params = { margin = 30, push = 0.025 } },
      },
    },
  },
  on_step = function(step)
    local t = step * 0.05
    if math.abs(t - 20) < 0.025 then
      fb.set_param("boid", "scatter", "startle", 1)
    elseif math.abs(t - 20.05) < 0.025 then
      fb.set_param("boid", "scatter", "startle", 0)
    end
  end,
  metrics = { { "spread", spread } },
}
