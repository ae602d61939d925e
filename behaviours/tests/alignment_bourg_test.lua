-- behaviours/tests/alignment_bourg_test.lua — what behaviours/alignment_bourg.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("turns towards the units' average heading", function()
  local _, ay = t.steer("alignment_bourg", { agent = { 100, 100, 2, 0 }, mates = { { 4, 0, 1, 1 }, { 4, 2, 1, 1 } } })
  t.greater(ay, 0, "a turn towards +y, their heading")
end)
