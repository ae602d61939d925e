-- behaviours/tests/evade_test.lua — what behaviours/evade.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("runs from a predator coming at it", function()
  local ax = t.steer("evade", { agent = { 100, 100 }, mates = { { 10, 0, -3, 0, species = "predator" } } })
  t.less(ax, 0, "away from the predator at +x")
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- max_speed 10 (/ 2 = 5), max_accel 20; the predator (species predator) placed at an offset.
local function predator(dx, dy, pvx, pvy, vx, fields)
  return case(vx or 0, 0, { { dx, dy, pvx or 0, pvy or 0, species = "predator" } }, { fields = fields })
end
-- A still predator at (10, 0), the agent still: |v_rel| = 0, t = horizon, q = (10, 0); v_e = (-10, 0),
-- -10 / 5 = -2, capped: (-20, 0). The agent starts fleeing.
t.test("worked: straight away from a still predator, and starts fleeing", function()
  local w = expect(-20, 0, 1e-9, "evade", predator(10, 0))
  t.equal(w:field("fleeing"), 1)
end)
-- Moving (0, 5): |v_rel| = 5, t = 10 / 5 = 2 s (< horizon 3): q = (10, 10); v_e = -10 (1, 1) / sqrt 2,
-- / 5 = -sqrt 2 (1, 1), length 2, capped: -(1, 1) / sqrt 2 * 20.
t.test("worked: away from where the predator will be", function()
  expect(-20 / math.sqrt(2), -20 / math.sqrt(2), 1e-9, "evade", predator(10, 0, 0, 5))
end)
-- Gain 0.25, moving (-5, 0) already: (-10 + 5) / 5 * 0.25 = -0.25 of 20: (-5, 0).
t.test("worked: gain", function()
  expect(-5, 0, 1e-9, "evade", predator(10, 0, 0, 0, -5), { gain = 0.25 })
end)
-- Radius 25, calm 40: a predator 30 away does not alarm a calm agent, but one already fleeing keeps
-- running until the predator is beyond calm, then stops.
local zones = { radius = 25, calm = 40 }
t.test("worked: beyond the alarm distance, not fleeing", function()
  local w = expect(0, 0, 1e-9, "evade", predator(30, 0), zones)
  t.equal(w:field("fleeing"), 0)
end)
t.test("worked: keeps fleeing out to calm, then calm again", function()
  expect(-20, 0, 1e-9, "evade", predator(30, 0, 0, 0, 0, { fleeing = 1 }), zones)
  local w = expect(0, 0, 1e-9, "evade", case(0, 0, { { 45, 0, species = "predator" } },
    { fields = { fleeing = 1 }, species = { vision = { radius = 50 } }, world = { width = 400, dt = 0.1 } }), zones)
  t.equal(w:field("fleeing"), 0, "stops fleeing")
end)
t.test("worked: calm below radius refused", function()
  t.fails(function() t.world({ rule = "evade", params = { radius = 25, calm = 10 } }) end, "calm")
end)
