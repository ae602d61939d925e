return {
  name = "Units in a line",
  world = { width = 200, height = 100, dt = 0.05, bounds = "clamp" },
  species = {
    {
      name = "unit", count = 0,
      agents = { { 40, 50, 5, 0 }, { 44, 50.5, 5, 0 }, { 48, 49.5, 5, 0 }, { 52, 50, 5, 0 }, { 56, 50.4, 5, 0 },
                 { 60, 50, 5, 0 } },
      body_length = 2, max_speed = 5, min_speed = 5,
      vision = { radius = 20, fov = 270 },
      rules = { { "leader", params = { front = 1, range = 10, own_type = true } } },
    },
    {
      name = "other", count = 0, agents = { { 66, 50, 5, 0 } },
      body_length = 2, max_speed = 5, min_speed = 5, vision = { radius = 20 },
      rules = {},
    },
  },
  on_step = function(step)
    if step == 5 then
      local front, best = nil, -math.huge
      for a in fb.agents("unit") do
        if a.x > best then
          front, best = a.id, a.x
        end
      end
      fb.remove(front)
    end
  end,
}
