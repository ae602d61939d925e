-- behaviours/tests/avoid_repulsive_test.lua — what behaviours/avoid_repulsive.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("pushed away from a near obstacle", function()
  local ax, ay = t.steer("avoid_repulsive", { agent = { 100, 100, 1, 0 }, obstacles = { { circle = { 108, 100, 4 } } } })
  t.away(ax, ay, 1, 0, 5)
end)

t.test("no obstacle in range: no push", function()
  local ax, ay = t.steer("avoid_repulsive", { agent = { 100, 100, 1, 0 }, obstacles = { { circle = { 170, 100, 4 } } } })
  t.zero(ax, ay)
end)
