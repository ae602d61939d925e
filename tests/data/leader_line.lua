-- tests/data/leader_line.lua — six units in a line, all heading +x at the same speed, with only the
-- leader rule (Bourg ch. 4): the front one (largest x) sees no unit of its type ahead and leads
-- (own_type = true; with Bourg's count of every type, the `other` unit ahead stops it leading).
-- At step 5 the scenario removes the front unit; from then on the next one leads.
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
    -- another type ahead of the line: with own_type it does not stop them leading
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
