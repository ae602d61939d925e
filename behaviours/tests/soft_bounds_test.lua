-- behaviours/tests/soft_bounds_test.lua — what behaviours/soft_bounds.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("inside the play area: no push", function()
  local ax, ay = t.steer("soft_bounds", { agent = { 100, 100, 1, 0 } })
  t.zero(ax, ay)
end)

t.test("past the left margin: pushed back in", function()
  local ax, ay = t.steer("soft_bounds", { agent = { 3, 100, -1, 0 }, world = { bounds = "clamp" } })
  t.greater(ax, 0)
  t.near(ay, 0)
end)

t.test("a wrapping world has no edges: no push", function()
  local ax, ay = t.steer("soft_bounds", { agent = { 3, 100, -1, 0 }, world = { bounds = "wrap" } })
  t.zero(ax, ay)
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The species of these cases: max_speed 10, max_accel 20, cruise 7, body length 1, separation
-- radius 2, seeing all round far enough for every mate placed; dt 0.1.
local S = t.WORKED_SPECIES
local expect = t.expect -- the steering the rule gives, near (wx, wy) within tol

-- A 200 x 100 world, margin 10, a push of 0.05 per step at T = 0.05: 0.05 / 0.05^2 = 20.
local function at(x, y, bounds)
  return { agent = { x, y }, species = S, world = { width = 200, height = 100, dt = 0.1, bounds = bounds or "clamp" } }
end
t.test("worked: past the left, right, bottom and top edges", function()
  expect(20, 0, 1e-9, "soft_bounds", at(5, 50))
  expect(-20, -20, 1e-9, "soft_bounds", at(195, 95))
  expect(0, 20, 1e-9, "soft_bounds", at(100, 2))
end)
t.test("worked: inside, nothing; a wrapping world has no edges", function()
  expect(0, 0, 1e-9, "soft_bounds", at(100, 50))
  expect(0, 0, 1e-9, "soft_bounds", at(5, 50, "wrap"))
end)
