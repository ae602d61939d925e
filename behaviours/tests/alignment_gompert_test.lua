-- behaviours/tests/alignment_gompert_test.lua — what behaviours/alignment_gompert.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("matches the mates' mean velocity", function()
  local ax, ay = t.steer("alignment_gompert", { agent = { 100, 100, 1, 0 }, mates = { { 3, 0, 0, 2 }, { 3, 2, 0, 2 } } })
  t.towards(ax, ay, -1, 2, 30)
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- Fractions of max_accel 20 at max_speed 10 (/ 2 = 5). Mean velocity (4, 0), own still:
-- 4 / 5 = 0.8, a = 16. Mean (3, 4): (0.6, 0.8), length 1: (12, 16). Mean (10, 0): 2, capped: 20.
t.test("worked: a fraction of max_accel", function()
  expect(16, 0, 1e-9, "alignment_gompert", case(0, 0, { { 3, 0, 4, 0 } }))
  expect(12, 16, 1e-9, "alignment_gompert", case(0, 0, { { 3, 0, 3, 4 } }))
end)
t.test("worked: capped at max_accel", function()
  expect(20, 0, 1e-9, "alignment_gompert", case(0, 0, { { 3, 0, 10, 0 } }))
end)
t.test("worked: no flock-mates, nothing", function()
  expect(0, 0, 1e-9, "alignment_gompert", case(3, 1))
end)
