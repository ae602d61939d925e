-- behaviours/tests/tend_to_place_test.lua — what behaviours/tend_to_place.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("drifts towards the place", function()
  local ax, ay = t.steer("tend_to_place", { agent = { 100, 100 } }, { x = 150, y = 120 })
  t.towards(ax, ay, 50, 20)
end)

t.test("towards a named goal", function()
  local ax, ay = t.steer("tend_to_place", { agent = { 100, 100 }, goals = { home = { 50, 150 } } }, { goal = "home" })
  t.towards(ax, ay, -50, 50)
end)
