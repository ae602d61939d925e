-- behaviours/tests/avoid_silhouette_test.lua — what behaviours/avoid_silhouette.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("steers past the obstacle ahead", function()
  local _, ay = t.steer("avoid_silhouette", { agent = { 100, 100, 3, 0 }, obstacles = { { circle = { 110, 101, 3 } } } })
  t.ok(ay ~= 0, "a sideways push")
  t.less(ay, 0, "round the side away from the centre, at +y")
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
local expect = t.expect -- the steering the rule gives, near (wx, wy) within tol

-- max_speed 12 (/ 2 = 6), max_accel 20, body length 1, pad 0.5; v = (6, 0). A convex block whose
-- near face is 3.5 ahead (x = 103.5) and whose nearer silhouette edge is the corner (106, 107.5):
-- padded, the target is (6, 8) from the agent: direction (0.6, 0.8), v_new = (3.6, 4.8),
-- v_new - v = (-2.4, 4.8), / 6 = (-0.4, 0.8); gap to the padded surface 3, proximity 1 / (1 + 3):
-- gain 1 gives (-0.1, 0.2) * 20 = (-2, 4); gain 10, (-1, 2) capped to length 1: (-1, 2) / sqrt 5 * 20.
local S12 = { max_speed = 12, max_accel = 20, body_length = 1, collide = false, vision = { radius = 30, fov = 360 } }
local function block(shift, x, y)
  local s = shift or 0
  return { agent = { x or 100, y or 100, 6, 0 }, species = S12, world = { dt = 0.1 },
    obstacles = { { polygon = { { 103.5 + s, 80 }, { 110 + s, 80 }, { 106 + s, 107.5 }, { 103.5 + s, 105 } } } } }
end
t.test("worked: toward the edge, scaled by proximity", function()
  expect(-2, 4, 1e-9, "avoid_silhouette", block(), { gain = 1 })
end)
t.test("worked: capped at max_accel", function()
  expect(-20 / math.sqrt(5), 40 / math.sqrt(5), 1e-9, "avoid_silhouette", block(), { gain = 10 })
end)
-- Within a body radius (0.5) of a surface, 0.2 from the face: straight out along its normal (-1, 0).
t.test("worked: the emergency push out", function()
  expect(-20, 0, 1e-9, "avoid_silhouette", block(0, 103.3, 100))
end)
-- Range 20: the same block 21 away is not seen.
t.test("worked: beyond the range, nothing", function()
  expect(0, 0, 1e-9, "avoid_silhouette", block(17.5))
end)
-- A block 3.6 away but off to one side (its silhouette, padded, from 0.5 to the right): nothing.
t.test("worked: nothing in the way, nothing", function()
  local d = block()
  d.obstacles = { { polygon = { { 103.5, 101 }, { 110, 101 }, { 110, 120 }, { 103.5, 120 } } } }
  expect(0, 0, 1e-9, "avoid_silhouette", d)
end)
