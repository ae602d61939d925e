-- behaviours/tests/separation_gompert_test.lua — what behaviours/separation_gompert.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("pushes a mate inside the comfort zone away", function()
  local ax, ay = t.steer("separation_gompert", { agent = { 100, 100, 1, 0 }, mates = { { 3, 0 } } })
  t.away(ax, ay, 3, 0, 30)
end)

t.test("a mate outside the comfort zone: no push", function()
  local ax, ay = t.steer("separation_gompert", { agent = { 100, 100, 1, 0 }, mates = { { 9.5, 0 } } })
  t.zero(ax, ay)
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- Fractions of max_accel 20. Comfort C = 4, danger D = 2: a flock-mate at d = 3:
-- w = (16 - 9) / (16 - 4) = 7/12, away from it: -7/12 * 20 along x. At d = 1 < D: w = 15/12,
-- capped at 1: (0, -20) from one below. Both: (-7/12, -1), length 1.1577 > 1, scaled to 1:
-- (-7, -12) / sqrt 193 * 20.
local zones = { comfort = 4, danger = 2 }
t.test("worked: inside the comfort zone", function()
  expect(-20 * 7 / 12, 0, 1e-9, "separation_gompert", case(0, 0, { { 3, 0 } }), zones)
end)
t.test("worked: inside the danger zone, the full push", function()
  expect(0, -20, 1e-9, "separation_gompert", case(0, 0, { { 0, 1 } }), zones)
end)
t.test("worked: the sum capped at 1", function()
  expect(-140 / math.sqrt(193), -240 / math.sqrt(193), 1e-9, "separation_gompert", case(0, 0, { { 3, 0 }, { 0, 1 } }), zones)
end)
t.test("worked: outside the comfort zone, or nobody: nothing", function()
  expect(0, 0, 1e-9, "separation_gompert", case(0, 0, { { 5, 0 } }), zones)
  expect(0, 0, 1e-9, "separation_gompert", case(3, 1), zones)
end)
t.test("worked: danger must be above 0 and below comfort", function()
  for _, bad in ipairs({ { comfort = 4, danger = 4 }, { comfort = 4, danger = 5 }, { comfort = 4, danger = 0 } }) do
    t.fails(function() t.world({ rule = "separation_gompert", params = bad }) end, "danger")
  end
  t.world({ rule = "separation_gompert", params = zones }) -- accepted
end)
