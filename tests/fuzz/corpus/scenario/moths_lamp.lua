
local CX, CY = 60, 60

local moths = {}
for k = 1, 40 do
  local angle, r = 2 * math.pi * math.random(), 18 + 14 * math.random()
  local heading, speed = 2 * math.pi * math.random(), 6 + 3 * math.random()
  moths[k] = { CX + r * math.cos(angle), CY + r * math.sin(angle), speed * math.cos(heading), speed * math.sin(heading) }
end

local function radius(pick)
  local best = pick == "min" and math.huge or 0
  for a in fb.agents() do
    local r = math.sqrt((a.x - CX) ^ 2 + (a.y - CY) ^ 2)
    best = pick == "min" and math.min(best, r) or math.max(best, r)
  end
  return best
end

return {
  name = "Moths round a lamp",
  world = { width = 120, height = 120, dt = 0.05, bounds = "clamp",
    update = "euler" }, -- the seed gives no update; the engine's default
  goals = { lamp = { CX, CY } },
  species = {
    {
      name = "moth", count = 0, agents = moths,
      body_length = 1.5, max_speed = 10, min_speed = 2, max_accel = 40,
      max_turn = 90,                     -- degrees per second
      vision = { radius = 10, fov = 360, separation = 2.5 },
      colour = { 235, 225, 190 },
      rules = {
        { "swarm_point", params = { goal = "lamp", divisor = 2000, repel = 15 } },
        { "separation" },
        { "alignment", weight = 0.1 },
      },
    },
  },
  metrics = {
    { "nearest_to_lamp", function() return radius("min") end },
    { "farthest_from_lamp", function() return radius("max") end },
  },
}
