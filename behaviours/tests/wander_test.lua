-- behaviours/tests/wander_test.lua — what behaviours/wander.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("meanders, and its steering stays bounded", function()
  local w = t.world({ rules = { "wander" }, agent = { 100, 100, 2, 0 }, species = { max_speed = 4 } })
  local turned = false
  for _ = 1, 50 do
    local ax, ay = w:steer(1)
    t.less(t.length(ax, ay), 1000, "bounded")
    turned = turned or math.abs(w:agent().hy) > 0.05
  end
  t.ok(turned, "it leaves a straight line")
end)

t.test("the same seed wanders the same way", function()
  local a = t.world({ rules = { "wander" }, agent = { 100, 100, 2, 0 }, seed = 7 }):step(40)
  local b = t.world({ rules = { "wander" }, agent = { 100, 100, 2, 0 }, seed = 7 }):step(40)
  t.equal(a:hash(), b:hash())
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- jitter 0 stands for the mock's chosen draw 0.5 (no step of the angle): angle 0, the wanted
-- velocity is cruise 7 along the heading. At 7, nothing; at 5: (7 - 5) / 5 = 0.4, times strength
-- 0.5 * max_accel 20: (4, 0).
local still = { jitter = 0 }
t.test("worked: on course at cruising speed; toward it when slower", function()
  expect(0, 0, 1e-9, "wander", case(7, 0), still)
  expect(4, 0, 1e-9, "wander", case(5, 0), still)
end)
-- A wander angle of 1 rad, beyond the limit of 45 degrees: held at 45; from rest 7 (cos, sin) 45
-- / 5 = (0.99, 0.99), length 1.4, capped: (0.7071, 0.7071) * 20 * strength 0.5.
t.test("worked: the angle held within the limit, and remembered", function()
  local w = expect(10 / math.sqrt(2), 10 / math.sqrt(2), 1e-9, "wander", case(0, 0, nil, { fields = { wander = 1 } }), still)
  t.near(w:field("wander"), math.rad(45), 1e-12)
end)
