local function herd_stats()
  local xs, ys, n = {}, {}, 0
  local px, py
  for a in fb.agents() do
    local sp, x, y = a.species, a.x, a.y
    if sp == "herd" then
      n = n + 1
      xs[n], ys[n] = x, y
    else
      px, py = x, y
    end
  end
  local nn, dist = 0, 0
  for i = 1, n do
    local best = math.huge
    for j = 1, n do
      if j ~= i then
        best = math.min(best, (xs[i] - xs[j]) ^ 2 + (ys[i] - ys[j]) ^ 2)
      end
    end
    nn = nn + math.sqrt(best)
    dist = dist + math.sqrt((xs[i] - px) ^ 2 + (ys[i] - py) ^ 2)
  end
  return nn / n, dist / n
end

return {
  name = "A predator approaches",
  world = { width = 500, height = 200, dt = 0.05, bounds = "clamp" },
  species = {
    {
      name = "herd", count = 12,
      spawn = { around = { 170, 100, 25 }, speed = 0 },
      body_length = 2, max_speed = 8, cruise_speed = 3, max_accel = 16,
      vision = { radius = 20, fov = 300, separation = 8 },
      accumulator = "prioritised",
      rules = {
        { "evade", params = { from = "predator", radius = 25, calm = 70, horizon = 2 } },
        { "bunch_up", params = { from = "predator", comfort = 8, tight = 3.5, far = 100, near = 30 } },
        { "alignment_gompert", params = { gain = 0.5 } },
        { "cohesion_gompert", params = { distance = 50 } },
      },
    },
    {
      name = "predator", count = 0, agents = { { 20, 100, 4, 0 } },
      body_length = 3, max_speed = 4, min_speed = 4, vision = { radius = 5 },
      rules = {},
    },
  },
  metrics = {
    { "herd_nn", function() return (herd_stats()) end },
    { "herd_to_predator", function() local _, d = herd_stats() return d end },
    { "fleeing", function()
        local n = 0
        for a in fb.agents() do
          n = n + a.fleeing
        end
        return n
      end },
  },
}
