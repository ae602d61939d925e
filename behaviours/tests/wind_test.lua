-- behaviours/tests/wind_test.lua — what behaviours/wind.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("the same push for every agent, wherever it is", function()
  local ax, ay = t.steer("wind", { agent = { 10, 20, 3, 1 } }, { x = 2, y = -1 })
  local bx, by = t.steer("wind", { agent = { 150, 90, -2, 0 } }, { x = 2, y = -1 })
  t.near2(ax, ay, bx, by)
  t.ok(ax ~= 0 or ay ~= 0, "it pushes")
end)
