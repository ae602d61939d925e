-- behaviours/tests/cohesion_bourg_test.lua — what behaviours/cohesion_bourg.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("turns towards the units' average position", function()
  local _, ay = t.steer("cohesion_bourg", { agent = { 100, 100, 2, 0 }, mates = { { 4, 4 }, { 4, 6 } } })
  t.greater(ay, 0, "a turn towards +y, where the mates are")
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- Heading +x in a y-down world: the right (starboard) side is r = (-hy, hx) = (0, 1), +y; force 0
-- means the species' max_accel, 20. Centre straight to the right (0, 10): angle pi/2,
-- a = +1 * 20 * (1/2) * (0, 1) = (0, 10); on the left, (0, -10).
t.test("worked: turns toward a centre on the right, or on the left", function()
  expect(0, 10, 1e-9, "cohesion_bourg", case(5, 0, { { -2, 10 }, { 2, 10 } }))
  expect(0, -10, 1e-9, "cohesion_bourg", case(5, 0, { { 0, -10 } }))
end)
-- Centre at (10, 10): angle pi/4, a = 20 / 4 * (0, 1) = (0, 5); force 8, centre on the right: 8 * 1/2 = 4.
t.test("worked: the push proportional to the angle, and the force parameter", function()
  expect(0, 5, 1e-9, "cohesion_bourg", case(5, 0, { { 10, 10 } }))
  expect(0, 4, 1e-9, "cohesion_bourg", case(5, 0, { { 0, 10 } }), { force = 8 })
end)
-- Dead ahead: nothing to correct; dead behind: no side to choose (Bourg skips |cos| = 1).
t.test("worked: centre dead ahead or dead behind, nothing", function()
  expect(0, 0, 1e-9, "cohesion_bourg", case(5, 0, { { 10, 0 } }))
  expect(0, 0, 1e-9, "cohesion_bourg", case(5, 0, { { -10, 0 } }))
end)
-- Heading +y (down the map): right is (-1, 0). Centre at (-10, 0) is on the right: (-10, 0).
t.test("worked: heading down the map, centre to its right", function()
  expect(-10, 0, 1e-9, "cohesion_bourg", case(0, 5, { { -10, 0 } }))
end)
t.test("worked: no flock-mates, nothing; a negative force refused", function()
  expect(0, 0, 1e-9, "cohesion_bourg", case(3, 1))
  t.fails(function() t.world({ rule = "cohesion_bourg", params = { force = -1 } }) end, "force")
end)
