-- behaviours/tests/flee_test.lua — what behaviours/flee.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("moves away from the nearest predator", function()
  local ax, ay = t.steer("flee", { agent = { 100, 100, 1, 0 }, mates = { { 5, 5, species = "predator" } } })
  t.away(ax, ay, 5, 5)
end)
