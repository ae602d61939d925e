-- behaviours/tests/separation_bourg_test.lua — what behaviours/separation_bourg.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("turns away from a unit too close on its right", function()
  local _, ay = t.steer("separation_bourg", { agent = { 100, 100, 2, 0 }, mates = { { 1, 0.5 } } })
  t.less(ay, 0, "a turn to -y, away from the unit at +y")
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
