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

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- Separation radius 2: flock-mates at (1, 0) and (0, -1.5) are inside, (5, 0) is not.
-- c = -(1, 0) - (0, -1.5) = (-1, 1.5); a = c / 1 / 0.05^2 = (-400, 600).
t.test("worked: away from the close flock-mates, (-400, 600)", function()
  expect(-400, 600, 1e-9, "separation", case(0, 0, { { 1, 0 }, { 0, -1.5 }, { 5, 0 } }))
end)
t.test("worked: nobody too close, or nobody at all: nothing", function()
  expect(0, 0, 1e-9, "separation", case(0, 0, { { 5, 0 } }))
  expect(0, 0, 1e-9, "separation", case(3, 1))
end)
