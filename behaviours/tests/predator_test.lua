-- behaviours/tests/predator_test.lua — what behaviours/predator.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("seeks the nearest prey", function()
  local ax, ay = t.steer("predator", { agent = { 100, 100 }, mates = { { 6, -6, species = "prey" } } })
  t.towards(ax, ay, 6, -6, 20)
end)

t.test("catches it", function()
  local w = t.world({ rules = { "predator" }, agent = { 100, 100 }, mates = { { 1, 0, species = "prey" } },
    species = { collide = false } })
  w:step(2)
  t.equal(w:count("prey"), 0)
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- max_speed 10 (/ 2 = 5), max_accel 20, dt 0.1, vision radius 10, catch 1.5, rest 4 s; the prey
-- (species prey) placed at an offset.
local S10 = { max_speed = 10, max_accel = 20, cruise_speed = 7, body_length = 1, collide = false,
  vision = { radius = 10, fov = 360, separation = 2 } }
local function hunt(dx, vx, fields)
  return case(vx or 0, 0, { { dx, 0, species = "prey" } }, { species = S10, fields = fields })
end
-- Prey at (2, 0), beyond catch: v_p = (10, 0), 10 / 5 = 2, capped: (20, 0); nothing caught.
t.test("worked: seeks the nearest prey", function()
  local w = expect(20, 0, 1e-9, "predator", hunt(2))
  t.equal(w:count("prey"), 1, "no catch yet")
end)
-- Prey at (1, 0): caught (removed through the command queue), rest 4 s, brake: -(3, 0) / 0.1.
t.test("worked: catches, starts resting, brakes", function()
  local w = expect(-30, 0, 1e-9, "predator", hunt(1, 3))
  t.equal(w:count("prey"), 0, "the prey it caught is removed")
  t.equal(w:field("resting"), 4)
end)
-- Resting 2 s: ignores the prey, brakes, 1.9 s left.
t.test("worked: resting, the rest counts down, no catch", function()
  local w = expect(-30, 0, 1e-9, "predator", hunt(1, 3, { resting = 2 }))
  t.near(w:field("resting"), 1.9, 1e-12)
  t.equal(w:count("prey"), 1)
end)
t.test("worked: no prey in view, nothing", function()
  expect(0, 0, 1e-9, "predator", hunt(20))
end)
