
local landed = {} -- id -> true while perched, to count landings
local landings = 0

return {
  name = "Perching birds",
  world = { width = 200, height = 160, dt = 0.05, bounds = "clamp",
    update = "semi_implicit" }, -- Parker moves each boid by its new velocity
  goals = { roost = { 100, 80 } },
  species = {
    {
      name = "bird", count = 12,
      spawn = { area = { 40, 40, 160, 120 }, speed = { 6, 10 } },
      body_length = 2, max_speed = 12, min_speed = 0, cruise_speed = 9, max_accel = 24,
      vision = { radius = 80, fov = 270, separation = 3 },
      colour = { 230, 230, 235 },
      rules = {
        { "perch", params = { ground = 0, ceiling = 30, sink = 1, perch_min = 2, perch_max = 6, gain = 4 } },
        { "separation", params = { divisor = 20 } },
        { "alignment", params = { divisor = 16 } },
        { "cohesion", params = { divisor = 2000 } },
        { "tend_to_place", params = { goal = "roost", divisor = 20000, max = 1 } },
        { "soft_bounds", params = { margin = 20, push = 0.025 } },
      },
    },
  },
  on_step = function(step)
    for a in fb.agents() do
      local perched = a.perch > 0
      if perched and not landed[a.id] then
        landings = landings + 1
      end
      landed[a.id] = perched or nil
    end
  end,
  metrics = {
    { "perched", function()
        local n = 0
        for a in fb.agents() do
          n = n + (a.perch > 0 and 1 or 0)
        end
        return n
      end },
    { "landings", function() return landings end },
  },
}
