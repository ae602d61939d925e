-- behaviours/tests/flee_test.lua — what behaviours/flee.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("moves away from the nearest predator", function()
  local ax, ay = t.steer("flee", { agent = { 100, 100, 1, 0 }, mates = { { 5, 5, species = "predator" } } })
  t.away(ax, ay, 5, 5)
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- Parker's negative tend_to_place from a predator at (3, 4), 5 away; radius 0 = the vision
-- radius, 10 here: -(3, 4) / 100 / 0.05^2 = (-12, -16).
local S10 = { max_speed = 10, max_accel = 20, cruise_speed = 7, body_length = 1, collide = false,
  vision = { radius = 10, fov = 360, separation = 2 } }
local function predator(dx, dy)
  return case(0, 0, { { dx, dy, species = "predator" } }, { species = S10 })
end
t.test("worked: Parker's negative tend_to_place", function()
  expect(-12, -16, 1e-9, "flee", predator(3, 4))
end)
t.test("worked: looks as far as the vision radius, 10", function()
  expect(-9.9 / 0.25, 0, 1e-9, "flee", predator(9.9, 0))
  expect(0, 0, 1e-9, "flee", predator(10.5, 0))
end)
t.test("worked: divisor 10, capped at max 2", function()
  expect(-1.2, -1.6, 1e-9, "flee", predator(3, 4), { divisor = 10, max = 2 })
end)
t.test("worked: beyond the radius parameter, nothing", function()
  expect(0, 0, 1e-9, "flee", predator(3, 4), { radius = 4 })
end)
