-- behaviours/tests/cohesion_gompert_test.lua — what behaviours/cohesion_gompert.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("accelerates towards the mates' centre", function()
  local ax, ay = t.steer("cohesion_gompert", { agent = { 100, 100, 1, 0 }, mates = { { 6, 0 }, { 6, 6 } } })
  t.towards(ax, ay, 6, 3, 30)
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- Centre 10 to the right; body length 1, so 1000 radii = 500 units: 10 / 500 = 0.02 of max_accel
-- 20, a = 0.4 (Gompert's 50 at his radius 0.05). distance 50 in world units: 10 / 50 = 0.2, a = 4.
-- The centre 100 away at distance 50: 2, capped at 1: a = 20.
t.test("worked: a fraction of max_accel", function()
  expect(0.4, 0, 1e-9, "cohesion_gompert", case(0, 0, { { 8, -3 }, { 12, 3 } }))
end)
t.test("worked: distance in world units", function()
  expect(4, 0, 1e-9, "cohesion_gompert", case(0, 0, { { 8, -3 }, { 12, 3 } }), { distance = 50 })
end)
t.test("worked: capped at max_accel", function()
  local far = { max_speed = 10, max_accel = 20, body_length = 1, collide = false, vision = { radius = 150, fov = 360 } }
  expect(20, 0, 1e-9, "cohesion_gompert", case(0, 0, { { 100, 0 } }, { species = far, world = { width = 400, dt = 0.1 } }),
    { distance = 50 })
end)
t.test("worked: no flock-mates, nothing", function()
  expect(0, 0, 1e-9, "cohesion_gompert", case(3, 1))
end)
