-- behaviours/tests/separation_test.lua — what behaviours/separation.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("pushes away from a mate that is too close", function()
  local ax, ay = t.steer("separation", { agent = { 100, 100, 1, 0 }, mates = { { 1, 0.5 } } })
  t.away(ax, ay, 1, 0.5)
end)

t.test("a mate beyond the separation distance: no push", function()
  local ax, ay = t.steer("separation", { agent = { 100, 100, 1, 0 }, mates = { { 8, 0 } },
    species = { vision = { radius = 20, separation = 2 } } })
  t.zero(ax, ay)
end)

t.test("two agents too close end apart", function()
  local w = t.world({ rules = { "separation" }, mates = { { 0.5, 0 } }, species = { collide = false } })
  local before = w:distance(1, 2)
  w:step(30)
  t.greater(w:distance(1, 2), before + 0.5)
end)
