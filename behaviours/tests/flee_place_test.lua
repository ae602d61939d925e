-- behaviours/tests/flee_place_test.lua — what behaviours/flee_place.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("moves away from the place", function()
  local ax, ay = t.steer("flee_place", { agent = { 100, 100 } }, { x = 90, y = 100 })
  t.away(ax, ay, -10, 0)
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- The negative of tend_to_place: from (110, 100), (-40, 0); nothing beyond the radius.
local goals = { world = { width = 400, height = 400, dt = 0.1 }, goals = { goal = { 200, 100 } } }
t.test("worked: away from (x, y)", function()
  expect(-40, 0, 1e-9, "flee_place", case(0, 0, nil, goals), { x = 110, y = 100 })
end)
t.test("worked: within the radius it flees, beyond it nothing", function()
  expect(-40, 0, 1e-9, "flee_place", case(0, 0, nil, goals), { x = 110, y = 100, radius = 20 })
  expect(0, 0, 1e-9, "flee_place", case(0, 0, nil, goals), { x = 110, y = 100, radius = 5 })
end)
t.test("worked: from a named goal, capped by max", function()
  expect(-4, 0, 1e-9, "flee_place", case(0, 0, nil, goals), { goal = "goal", max = 4 })
end)
