-- behaviours/tests/avoid_feeler_test.lua — what behaviours/avoid_feeler.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("turns away from the obstacle its feeler touches", function()
  local _, ay = t.steer("avoid_feeler", { agent = { 100, 100, 3, 0 }, obstacles = { { circle = { 108, 101, 3 } } } })
  t.less(ay, 0, "away from the obstacle, slightly to +y")
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- Heading +x, feeler L = 5 * body length 1 = 5, pad = body radius 0.5. A tree of radius 2 centred
-- at (5, 1) from the agent, slightly right: |c| = sqrt 26, m = -1: a = -20 * 5 / sqrt 26 * (0, 1):
-- turn left; at (5, -1), right; dead ahead at (5, 0): turn right, 20 * 5 / 5 = 20.
local function tree(dx, dy, r)
  return case(5, 0, nil, { obstacles = { { circle = { 100 + dx, 100 + dy, r or 2 } } } })
end
t.test("worked: turns away from a centre on the right, or on the left", function()
  expect(0, -100 / math.sqrt(26), 1e-9, "avoid_feeler", tree(5, 1))
  expect(0, 100 / math.sqrt(26), 1e-9, "avoid_feeler", tree(5, -1))
end)
t.test("worked: a centre dead ahead, turn right", function()
  expect(0, 20, 1e-9, "avoid_feeler", tree(5, 0))
end)
-- The feeler is 5 long and padded by 0.5: a tree of radius 2 at 7 is met at 7 - 2.5 = 4.5; at
-- 8, at 5.5, beyond it. The mock checked the length and pad the rule asked for; this is what they do.
t.test("worked: the feeler's length and pad", function()
  local _, ay = t.steer("avoid_feeler", tree(7, 0))
  t.near(ay, 20 * 5 / 7, 1e-9, "met at 4.5")
  expect(0, 0, 1e-9, "avoid_feeler", tree(8, 0))
end)
t.test("worked: clear ahead, nothing", function()
  expect(0, 0, 1e-9, "avoid_feeler", case(5, 0))
end)
