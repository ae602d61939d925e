-- behaviours/tests/seek_goal_test.lua — what behaviours/seek_goal.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("heads for the goal", function()
  local ax, ay = t.steer("seek_goal", { agent = { 100, 100 }, goals = { goal = { 160, 40 } } })
  t.towards(ax, ay, 60, -60)
end)

t.test("reaches it over a few seconds", function()
  local w = t.world({ rules = { "seek_goal" }, agent = { 20, 100 }, goals = { goal = { 60, 100 } } })
  w:step(400)
  t.less(t.length(w:agent().x - 60, w:agent().y - 100), 5)
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- The goal 100 to the right; cruise_speed 7, max_speed 10 (/ 2 = 5), max_accel 20.
local goals = { world = { width = 400, height = 400, dt = 0.1 }, goals = { goal = { 200, 100 }, near = { 103, 104 } } }
t.test("worked: at cruise speed toward the goal, nothing; at 5, (7 - 5) / 5 = 0.4 of 20", function()
  expect(0, 0, 1e-9, "seek_goal", case(7, 0, nil, goals))
  expect(8, 0, 1e-9, "seek_goal", case(5, 0, nil, goals))
end)
t.test("worked: gain 0.5 halves it", function()
  expect(4, 0, 1e-9, "seek_goal", case(5, 0, nil, goals), { gain = 0.5 })
end)
-- From rest: 7 / 5 = 1.4, capped at 1; moving away at 7: (7 + 7) / 5 = 2.8, capped.
t.test("worked: from rest or moving away, capped at max_accel", function()
  expect(20, 0, 1e-9, "seek_goal", case(0, 0, nil, goals))
  expect(20, 0, 1e-9, "seek_goal", case(-7, 0, nil, goals))
end)
-- The goal (3, 4) away, distance 5 < 7: the wanted velocity is the offset itself: (0.6, 0.8) * 20.
t.test("worked: slows near the goal", function()
  expect(12, 16, 1e-9, "seek_goal", case(0, 0, nil, goals), { goal = "near" })
end)
t.test("worked: the cruise parameter over the species'", function()
  expect(0, 0, 1e-9, "seek_goal", case(5, 0, nil, goals), { cruise = 5 })
end)
t.test("worked: no such goal, nothing; cruise above max_speed refused", function()
  expect(0, 0, 1e-9, "seek_goal", case(0, 0, nil, goals), { goal = "nowhere" })
  t.fails(function() t.world(case(0, 0, nil, { rule = "seek_goal", params = { cruise = 11 } })) end, "cruise")
end)
