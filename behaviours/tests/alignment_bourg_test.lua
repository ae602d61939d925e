-- behaviours/tests/alignment_bourg_test.lua — what behaviours/alignment_bourg.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("turns towards the units' average heading", function()
  local _, ay = t.steer("alignment_bourg", { agent = { 100, 100, 2, 0 }, mates = { { 4, 0, 1, 1 }, { 4, 2, 1, 1 } } })
  t.greater(ay, 0, "a turn towards +y, their heading")
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- Heading +x, right side +y, force 0 = max_accel 20. Flock-mates moving (0, -3) (up the map, to
-- the left): angle pi/2, m = -1: a = -20 / 2 * (0, 1) = (0, -10). Moving (2, 2): pi/4 on the
-- right: (0, 5). Standing still: no heading to match.
t.test("worked: turns toward a heading on the left", function()
  expect(0, -10, 1e-9, "alignment_bourg", case(5, 0, { { 3, 3, 0, -3 } }))
end)
t.test("worked: the push proportional to the angle", function()
  expect(0, 5, 1e-9, "alignment_bourg", case(5, 0, { { 3, 3, 2, 2 } }))
end)
t.test("worked: still flock-mates, or none: nothing", function()
  expect(0, 0, 1e-9, "alignment_bourg", case(5, 0, { { 3, 3 } }))
  expect(0, 0, 1e-9, "alignment_bourg", case(3, 1))
end)
