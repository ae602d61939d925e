-- behaviours/tests/cohesion_gompert_test.lua — what behaviours/cohesion_gompert.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("accelerates towards the mates' centre", function()
  local ax, ay = t.steer("cohesion_gompert", { agent = { 100, 100, 1, 0 }, mates = { { 6, 0 }, { 6, 6 } } })
  t.towards(ax, ay, 6, 3, 30)
end)
