-- behaviours/tests/follow_route_test.lua — what behaviours/follow_route.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

-- A wall across the middle, from y = 40 to y = 160, with free ground above and below it.
local WALL = { { polygon = { { 95, 40 }, { 105, 40 }, { 105, 160 }, { 95, 160 } } } }

t.test("the goal in sight: straight at it, speed 1 over 0.25 s", function()
  local ax, ay = t.steer("follow_route", { agent = { 20, 100 } }, { x = 60, y = 100 })
  t.near2(ax, ay, 4, 0, 1e-6)
end)

t.test("a wall between: heads round an end of it, not into it", function()
  local ax, ay = t.steer("follow_route", { agent = { 60, 100 }, obstacles = WALL }, { x = 140, y = 100 })
  t.greater(math.abs(ay), math.abs(ax)) -- the corner at y = 40 or 160 is more across than ahead
end)

t.test("no way there: no steering", function()
  local boxed = { { polygon = { { 130, 80 }, { 170, 80 }, { 170, 120 }, { 130, 120 } } } }
  local ax, ay = t.steer("follow_route", { agent = { 60, 100 }, obstacles = boxed }, { x = 150, y = 100 })
  t.zero(ax, ay)
end)

t.test("arrives behind the wall without entering it", function()
  local w = t.world({ rules = { { "follow_route", params = { x = 140, y = 100, speed = 8 } } },
                      agent = { 60, 100 }, obstacles = WALL })
  for _ = 1, 60 do
    w:step(10)
    local me = w:agent()
    t.ok(not (me.x > 95 and me.x < 105 and me.y > 40 and me.y < 160), "inside the wall")
  end
  local me = w:agent()
  t.less(t.length(me.x - 140, me.y - 100), 1)
end)

-- Worked by hand (moved from tests/rules_test.lua's mock of a:route): at rest, speed 1, time 0.25.
t.test("worked: full speed toward a waypoint with more after it, |a| = 1 / 0.25", function()
  local ax, ay = t.steer("follow_route", { agent = { 60, 100 }, obstacles = WALL }, { x = 140, y = 100 })
  t.near(t.length(ax, ay), 4, 1e-9)
end)
t.test("worked: the goal 0.5 away on the last leg: w = the offset, slowing down", function()
  local ax, ay = t.steer("follow_route", { agent = { 20, 100 } }, { x = 20.5, y = 100 })
  t.near2(ax, ay, 2, 0, 1e-9)
end)
