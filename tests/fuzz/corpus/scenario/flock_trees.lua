
local trees = {}
local state = 12345
local function jitter()
  state = (state * 1103515245 + 12345) % 2147483648
  return state / 2147483648 - 0.5
end
for gx = 0, 4 do
  for gy = 0, 5 do
    local x = 80 + gx * 35 + jitter() * 14
    local y = 30 + gy * 30 + jitter() * 14 + (gx % 2) * 15
    trees[#trees + 1] = { circle = { x, y, 4 + (jitter() + 0.5) * 3 } }
  end
end

return {
  name = "Flock among trees",
  world = { width = 300, height = 200, dt = 0.05, bounds = "clamp",
    update = "euler" }, -- Gompert eq. 1: moved by the velocity it had
  obstacles = trees,
  goals = { goal = { 290, 100 } },
  species = {
    {
      name = "flock",
      count = 12,
      spawn = { area = { 5, 60, 40, 140 }, speed = { 1, 3 }, heading = 0 },
      body_length = 1.5,
      max_speed = 10, cruise_speed = 7, max_accel = 20,
      vision = { radius = 15, fov = 270, separation = 4 },
      accumulator = "prioritised",
      colour = { 120, 200, 255 },
      rules = {
        { "avoid_silhouette", name = "avoid", params = { range = 20 } },
        { "separation_gompert", params = { comfort = 4, danger = 2 } },
        { "alignment_gompert" },
        { "cohesion_gompert" },
        { "seek_goal", params = { goal = "goal" } },
      },
    },
  },
}
