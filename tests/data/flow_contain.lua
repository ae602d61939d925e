-- tests/data/flow_contain.lua — containment against a field that pushes out: a spiral flow field carries walkers outward, a notched region holds them (test_flow.c).
local CX, CY = 50, 30
return {
  name = "Containment against an outward spiral",
  world = { width = 100, height = 80, dt = 0.05, bounds = "clamp" },
  regions = { pen = { { 10, 10 }, { 90, 10 }, { 90, 70 }, { 60, 70 }, { 60, 40 }, { 40, 40 }, { 40, 70 }, { 10, 70 } } },
  flow_fields = { spiral = { cell = 2, fn = function(x, y) -- outward and round: 6 units/s at 45 degrees off radial
      local dx, dy = x - CX, y - CY
      local d = math.sqrt(dx * dx + dy * dy)
      if d == 0 then return 0, 0 end
      return 6 * (dx - dy) / (d * math.sqrt(2)), 6 * (dy + dx) / (d * math.sqrt(2))
    end } },
  species = {
    {
      name = "walker", count = 60, spawn = { area = { 15, 15, 85, 35 }, speed = { 0, 2 } },
      body_length = 1.5, max_speed = 8, cruise_speed = 6, max_accel = 24,
      vision = { radius = 6, fov = 300, separation = 3 }, accumulator = "prioritised",
      rules = {
        { "stay_inside", params = { region = "pen", margin = 4, predict = 1 } },
        { "separation_gompert", params = { comfort = 3, danger = 1.6 } },
        { "follow_flow", params = { field = "spiral", predict = 0.3, gain = 3 } },
      },
    },
  },
  metrics = {
    { "outside", function()
        local n = 0
        for a in fb.agents() do n = n + (select(6, fb.region("pen", a.x, a.y)) and 0 or 1) end
        return n
      end },
    { "nearest_edge", function() -- the smallest distance of any agent inside to the edge
        local least = math.huge
        for a in fb.agents() do
          local _, _, d, _, _, inside = fb.region("pen", a.x, a.y)
          if inside then least = math.min(least, d) end
        end
        return least == math.huge and 0 or least
      end },
  },
}
