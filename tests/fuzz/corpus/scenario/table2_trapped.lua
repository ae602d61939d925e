local trees = {}
for y = 2, 198, 3 do
  trees[#trees + 1] = { circle = { 150, y, 0.9 } }
end

local function centre_x()
  local n, sum = 0, 0
  for a in fb.agents() do
    n, sum = n + 1, sum + a.x
  end
  return sum / n
end

return {
  name = "Table 2: trapped by obstacles",
  world = { width = 300, height = 200, dt = 0.05, bounds = "clamp",
    update = "euler" }, -- Gompert eq. 1: moved by the velocity it had
  obstacles = trees,
  goals = { goal = { 280, 100 } },
  species = {
    {
      name = "herd", count = 12,
      spawn = { area = { 10, 70, 50, 130 }, speed = { 1, 3 }, heading = 0 },
      body_length = 2, max_speed = 8, cruise_speed = 5.6, max_accel = 16,
      vision = { radius = 20, fov = 270, separation = 6 },
      accumulator = "prioritised",
      colour = { 200, 140, 90 },
      rules = {
        { "avoid_silhouette", name = "avoid", params = { range = 20 } },
        { "separation_gompert", params = { comfort = 6, danger = 3 } },
        { "alignment_gompert" },
        { "cohesion_gompert" },
        { "seek_goal", params = { goal = "goal" } },
      },
    },
  },
  metrics = { { "progress", centre_x } },
}
