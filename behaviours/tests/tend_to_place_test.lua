-- behaviours/tests/tend_to_place_test.lua — what behaviours/tend_to_place.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("drifts towards the place", function()
  local ax, ay = t.steer("tend_to_place", { agent = { 100, 100 } }, { x = 150, y = 120 })
  t.towards(ax, ay, 50, 20)
end)

t.test("towards a named goal", function()
  local ax, ay = t.steer("tend_to_place", { agent = { 100, 100 }, goals = { home = { 50, 150 } } }, { goal = "home" })
  t.towards(ax, ay, -50, 50)
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- Parker's tend: a = (place - p) / 100 / 0.05^2. Toward (110, 100), 10 away: 40. Toward (130, 140):
-- (30, 40) / 0.25 capped by max 2 to (1.2, 1.6). Toward the goal 100 away: 400.
local goals = { world = { width = 400, height = 400, dt = 0.1 }, goals = { goal = { 200, 100 } } }
t.test("worked: toward (x, y)", function()
  expect(40, 0, 1e-9, "tend_to_place", case(0, 0, nil, goals), { x = 110, y = 100 })
end)
t.test("worked: capped by max", function()
  expect(1.2, 1.6, 1e-9, "tend_to_place", case(0, 0, nil, goals), { x = 130, y = 140, max = 2 })
end)
t.test("worked: toward a named goal; no such goal, nothing", function()
  expect(400, 0, 1e-9, "tend_to_place", case(0, 0, nil, goals), { goal = "goal" })
  expect(0, 0, 1e-9, "tend_to_place", case(0, 0, nil, goals), { goal = "nowhere" })
end)
