local pursuer = {
  count = 0,
  agents = { { 20, 150, 10, 0 } },
  body_length = 2, max_speed = 10, min_speed = 10, max_accel = 20,
  vision = { radius = 10 },
}
local function with(name, rule, colour)
  local s = { name = name, colour = colour, rules = { { rule, params = { target = "target" } } } }
  for k, v in pairs(pursuer) do
    s[k] = v
  end
  return s
end

local function distance(species)
  local tx, ty, px, py
  for a in fb.agents() do
    local sp, x, y = a.species, a.x, a.y
    if sp == "target" then
      tx, ty = x, y
    elseif sp == species then
      px, py = x, y
    end
  end
  return math.sqrt((tx - px) ^ 2 + (ty - py) ^ 2)
end

return {
  name = "Chase against intercept",
  world = { width = 300, height = 300, dt = 0.05, bounds = "clamp" },
  species = {
    {
      name = "target", count = 0, agents = { { 150, 40, 0, 7 } },
      body_length = 2, max_speed = 7, min_speed = 7, vision = { radius = 5 },
      rules = {},
    },
    with("chaser", "chase", { 70, 110, 255 }),
    with("interceptor", "intercept", { 255, 0, 255 }),
  },
  metrics = {
    { "chaser_distance", function() return distance("chaser") end },
    { "interceptor_distance", function() return distance("interceptor") end },
  },
}
