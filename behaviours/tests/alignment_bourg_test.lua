-- behaviours/tests/alignment_bourg_test.lua — what behaviours/alignment_bourg.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("turns towards the units' average heading", function()
  local _, ay = t.steer("alignment_bourg", { agent = { 100, 100, 2, 0 }, mates = { { 4, 0, 1, 1 }, { 4, 2, 1, 1 } } })
  t.greater(ay, 0, "a turn towards +y, their heading")
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The species of these cases: max_speed 10, max_accel 20, cruise 7, body length 1, separation
-- radius 2, seeing all round far enough for every mate placed; dt 0.1. The agent is at (100, 100).
local S = { max_speed = 10, max_accel = 20, cruise_speed = 7, body_length = 1, collide = false,
  vision = { radius = 30, fov = 360, separation = 2 } }
local function case(vx, vy, mates, extra)
  local d = { agent = { 100, 100, vx or 0, vy or 0 }, species = S, world = { dt = 0.1 }, mates = mates }
  for k, v in pairs(extra or {}) do
    d[k] = v
  end
  return d
end
-- The steering the rule gives, near (wx, wy) within tol; returns the world, one step on.
local function expect(wx, wy, tol, rule, d, params)
  local ax, ay, w = t.steer(rule, d, params)
  t.near2(ax, ay, wx, wy, tol)
  return w
end

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
