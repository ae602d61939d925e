-- behaviours/tests/chase_test.lua — what behaviours/chase.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("steers along the line of sight to the target", function()
  local _, ay = t.steer("chase", { agent = { 100, 100, 1, 0 }, mates = { { 10, 10, species = "player" } } })
  t.greater(ay, 0, "turns towards the target at +y")
end)
