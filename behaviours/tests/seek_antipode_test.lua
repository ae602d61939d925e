-- behaviours/tests/seek_antipode_test.lua — what behaviours/seek_antipode.lua promises, in real worlds (flockbox test behaviours/).
-- RVO2's Circle: on its first step an agent fixes its goal, the point opposite it through the centre
-- c (2 c - p), and keeps it; it heads there at `speed` (1), slowing within `speed` of it, closing on
-- that velocity over `time` (0.25 s).
local t = require("flockbox.test")

t.test("the first step fixes the goal opposite the centre", function()
  local ax, ay, w = t.steer("seek_antipode", { agent = { 100, 100 } }, { x = 110, y = 100 })
  t.near2(ax, ay, 4, 0, 1e-9) -- (1, 0) / 0.25
  t.equal(w:field("goal_x"), 120)
  t.equal(w:field("goal_y"), 100)
  t.equal(w:field("has_goal"), 1)
end)

t.test("keeps the goal it fixed as it moves", function()
  local w = t.world({ rules = { { "seek_antipode", params = { x = 110, y = 100 } } }, agent = { 100, 100 } })
  w:step(40)
  t.greater(w:agent().x, 101)
  t.equal(w:field("goal_x"), 120, "not 2 c - p of where it is now")
end)

t.test("speed and time", function()
  local ax, ay = t.steer("seek_antipode", { agent = { 100, 100 } }, { x = 100, y = 115, speed = 2, time = 1 })
  t.near2(ax, ay, 0, 2, 1e-9)
end)

t.test("arrives at the goal and stops there", function()
  local w = t.world({ rules = { { "seek_antipode", params = { x = 102, y = 100 } } }, agent = { 100, 100 } })
  w:step(200)
  local a = w:agent()
  t.near2(a.x, a.y, 104, 100, 0.01)
  t.less(a.speed, 0.01)
end)
