-- behaviours/tests/avoid_repulsive_test.lua — what behaviours/avoid_repulsive.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("pushed away from a near obstacle", function()
  local ax, ay = t.steer("avoid_repulsive", { agent = { 100, 100, 1, 0 }, obstacles = { { circle = { 108, 100, 4 } } } })
  t.away(ax, ay, 1, 0, 5)
end)

t.test("no obstacle in range: no push", function()
  local ax, ay = t.steer("avoid_repulsive", { agent = { 100, 100, 1, 0 }, obstacles = { { circle = { 170, 100, 4 } } } })
  t.zero(ax, ay)
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- A wall whose face is `gap` to the right of the agent (outward normal (-1, 0)); reach 3, range 20.
local function wall(gap, vx)
  local x = 100 + gap
  return case(vx or 5, 0, nil, { obstacles = { { polygon = { { x, 80 }, { x + 20, 80 }, { x + 20, 120 }, { x, 120 } } } } })
end
-- The surface 6 away: (3 / 6)^2 = 0.25 of max_accel 20, (-5, 0); 2 away, within reach: (-20, 0).
t.test("worked: the inverse square, then full within reach", function()
  expect(-5, 0, 1e-9, "avoid_repulsive", wall(6))
  expect(-20, 0, 1e-9, "avoid_repulsive", wall(2))
end)
-- Inside a box whose nearest face is 0.5 below the agent: the full push out, (0, 20).
t.test("worked: inside, the full push out", function()
  expect(0, 20, 1e-9, "avoid_repulsive", case(5, 0, nil,
    { obstacles = { { polygon = { { 90, 80 }, { 130, 80 }, { 130, 100.5 }, { 90, 100.5 } } } } }))
end)
t.test("worked: beyond range 20, nothing", function()
  expect(0, 0, 1e-9, "avoid_repulsive", wall(25))
end)
