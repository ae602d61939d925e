-- behaviours/tests/alignment_gompert_test.lua — what behaviours/alignment_gompert.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("matches the mates' mean velocity", function()
  local ax, ay = t.steer("alignment_gompert", { agent = { 100, 100, 1, 0 }, mates = { { 3, 0, 0, 2 }, { 3, 2, 0, 2 } } })
  t.towards(ax, ay, -1, 2, 30)
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
