-- behaviours/tests/cohesion_bourg_test.lua — what behaviours/cohesion_bourg.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("turns towards the units' average position", function()
  local _, ay = t.steer("cohesion_bourg", { agent = { 100, 100, 2, 0 }, mates = { { 4, 4 }, { 4, 6 } } })
  t.greater(ay, 0, "a turn towards +y, where the mates are")
end)
