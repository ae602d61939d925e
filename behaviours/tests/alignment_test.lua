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

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- Flock-mates moving (6, 2) and (10, -2): mean (8, 0); own velocity (0, 4); one factor of T:
-- a = ((8 - 0) / 8 / 0.05, (0 - 4) / 8 / 0.05) = (20, -10).
t.test("worked: toward the mean velocity, (20, -10)", function()
  expect(20, -10, 1e-9, "alignment", case(0, 4, { { 5, 0, 6, 2 }, { 0, 5, 10, -2 } }))
end)
t.test("worked: no flock-mates, nothing", function()
  expect(0, 0, 1e-9, "alignment", case(3, 1))
end)
