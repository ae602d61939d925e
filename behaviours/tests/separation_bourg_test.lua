-- behaviours/tests/separation_bourg_test.lua — what behaviours/separation_bourg.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("turns away from a unit too close on its right", function()
  local _, ay = t.steer("separation_bourg", { agent = { 100, 100, 2, 0 }, mates = { { 1, 0.5 } } })
  t.less(ay, 0, "a turn to -y, away from the unit at +y")
end)
