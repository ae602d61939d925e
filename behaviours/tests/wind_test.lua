-- behaviours/tests/wind_test.lua — what behaviours/wind.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("the same push for every agent, wherever it is", function()
  local ax, ay = t.steer("wind", { agent = { 10, 20, 3, 1 } }, { x = 2, y = -1 })
  local bx, by = t.steer("wind", { agent = { 150, 90, -2, 0 } }, { x = 2, y = -1 })
  t.near2(ax, ay, bx, by)
  t.ok(ax ~= 0 or ay ~= 0, "it pushes")
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The species of these cases: max_speed 10, max_accel 20, cruise 7, body length 1, separation
-- radius 2, seeing all round far enough for every mate placed; dt 0.1.
local S = t.WORKED_SPECIES
local expect = t.expect -- the steering the rule gives, near (wx, wy) within tol

t.test("worked: a constant push, whatever the agent does", function()
  expect(3, -2, 1e-9, "wind", { agent = { 50, 60, 1, 0 }, species = S }, { x = 3, y = -2 })
end)
