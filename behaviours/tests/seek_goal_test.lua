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
