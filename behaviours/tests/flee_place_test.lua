-- behaviours/tests/flee_place_test.lua — what behaviours/flee_place.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("moves away from the place", function()
  local ax, ay = t.steer("flee_place", { agent = { 100, 100 } }, { x = 90, y = 100 })
  t.away(ax, ay, -10, 0)
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

-- The negative of tend_to_place: from (110, 100), (-40, 0); nothing beyond the radius.
local goals = { world = { width = 400, height = 400, dt = 0.1 }, goals = { goal = { 200, 100 } } }
t.test("worked: away from (x, y)", function()
  expect(-40, 0, 1e-9, "flee_place", case(0, 0, nil, goals), { x = 110, y = 100 })
end)
t.test("worked: within the radius it flees, beyond it nothing", function()
  expect(-40, 0, 1e-9, "flee_place", case(0, 0, nil, goals), { x = 110, y = 100, radius = 20 })
  expect(0, 0, 1e-9, "flee_place", case(0, 0, nil, goals), { x = 110, y = 100, radius = 5 })
end)
t.test("worked: from a named goal, capped by max", function()
  expect(-4, 0, 1e-9, "flee_place", case(0, 0, nil, goals), { goal = "goal", max = 4 })
end)
