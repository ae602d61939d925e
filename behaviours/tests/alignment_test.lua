-- behaviours/tests/alignment_test.lua — what behaviours/alignment.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("steers towards the mates' mean velocity", function()
  local ax, ay = t.steer("alignment", { agent = { 100, 100, 1, 0 }, mates = { { 3, 0, 0, 2 }, { 3, 2, 0, 2 } } })
  t.towards(ax, ay, -1, 2) -- from (1, 0) towards (0, 2)
end)

t.test("already matched: nothing to do", function()
  local ax, ay = t.steer("alignment", { agent = { 100, 100, 1, 0 }, mates = { { 3, 0, 1, 0 } } })
  t.zero(ax, ay, 1e-12)
end)
