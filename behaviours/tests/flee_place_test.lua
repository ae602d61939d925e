-- behaviours/tests/flee_place_test.lua — what behaviours/flee_place.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("moves away from the place", function()
  local ax, ay = t.steer("flee_place", { agent = { 100, 100 } }, { x = 90, y = 100 })
  t.away(ax, ay, -10, 0)
end)
