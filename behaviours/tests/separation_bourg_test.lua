-- behaviours/tests/separation_bourg_test.lua — what behaviours/separation_bourg.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("turns away from a unit too close on its right", function()
  local _, ay = t.steer("separation_bourg", { agent = { 100, 100, 2, 0 }, mates = { { 1, 0.5 } } })
  t.less(ay, 0, "a turn to -y, away from the unit at +y")
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- limit = factor 2 * body length 1 = 2. A flock-mate at (1, 1) on the right, d = sqrt 2: m = -1,
-- a = -20 * 2 / sqrt 2 * (0, 1) = (0, -28.2843). Plus one at (0, -2) on the left, on the limit:
-- +20 * 2 / 2 = +20, total (0, 20 - 28.2843); one at (3, 0) is beyond the limit.
t.test("worked: turns left, away from a flock-mate on the right", function()
  expect(0, -20 * math.sqrt(2), 1e-9, "separation_bourg", case(5, 0, { { 1, 1 } }))
end)
t.test("worked: pushes from both sides add up", function()
  expect(0, 20 - 20 * math.sqrt(2), 1e-9, "separation_bourg", case(5, 0, { { 1, 1 }, { 0, -2 }, { 3, 0 } }))
end)
-- Dead ahead at d = 1: turn right, 20 * 2 / 1 = 40.
t.test("worked: a flock-mate dead ahead, turn right", function()
  expect(0, 40, 1e-9, "separation_bourg", case(5, 0, { { 1, 0 } }))
end)
t.test("worked: nobody within the limit, or nobody: nothing; factor 0 refused", function()
  expect(0, 0, 1e-9, "separation_bourg", case(5, 0, { { 3, 0 } }))
  expect(0, 0, 1e-9, "separation_bourg", case(3, 1))
  t.fails(function() t.world({ rule = "separation_bourg", params = { factor = 0 } }) end, "factor")
end)
