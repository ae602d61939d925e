-- behaviours/tests/terrain_drag_test.lua — what behaviours/terrain_drag.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("climbing a slope is resisted", function()
  local ax = t.steer("terrain_drag", { agent = { 100, 100, 2, 0 }, terrain = { slope = { 0.5, 0 } } })
  t.less(ax, 0, "a drag against the climb")
end)

t.test("on flat ground: no drag", function()
  local ax, ay = t.steer("terrain_drag", { agent = { 100, 100, 2, 0 } })
  t.zero(ax, ay)
end)
