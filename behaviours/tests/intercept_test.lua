-- behaviours/tests/intercept_test.lua — what behaviours/intercept.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("steers for where the target will be", function()
  local _, ay = t.steer("intercept", { agent = { 100, 100, 1, 0 }, mates = { { 10, 0, 0, 3, species = "player" } } })
  t.greater(ay, 0, "leads the target, which moves to +y")
end)
