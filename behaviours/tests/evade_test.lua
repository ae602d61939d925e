-- behaviours/tests/evade_test.lua — what behaviours/evade.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("runs from a predator coming at it", function()
  local ax = t.steer("evade", { agent = { 100, 100 }, mates = { { 10, 0, -3, 0, species = "predator" } } })
  t.less(ax, 0, "away from the predator at +x")
end)
