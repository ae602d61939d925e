-- behaviours/tests/pursue_path_test.lua — what behaviours/pursue_path.lua promises, in real worlds (flockbox test behaviours/).
-- Offset pursuit of a point held beside the path's object: w = u + (slot - p) / lookahead, matched
-- at 4 (w - v) (max_speed 10, max_accel 20).
local t = require("flockbox.test")

-- The object at (100, 100) moving +x at 3 along y = 100.
local paths = { { name = "route", points = { { 0, 100 }, { 200, 100 } }, speed = 3, start = 0.5 } }

t.test("arrives at the point behind the object", function()
  local ax, ay = t.steer("pursue_path", { agent = { 98, 100 }, paths = paths }, { ahead = -1 })
  t.near2(ax, ay, 16, 0, 1e-9) -- w = (3, 0) + (1, 0): 4 (4, 0)
end)

t.test("to the right of it", function()
  local ax, ay = t.steer("pursue_path", { agent = { 98, 100, 3, 0 }, paths = paths }, { right = 2 })
  t.near2(ax, ay, 8, 8, 1e-9) -- 2 behind it: w = (3, 0) + (2, 2), w - v = (2, 2)
end)

t.test("no such path: nothing", function()
  local ax, ay = t.steer("pursue_path", { agent = { 98, 100 }, paths = paths }, { path = "nowhere" })
  t.zero(ax, ay)
end)

t.test("holds station beside the moving object", function()
  local w = t.world({ rules = { { "pursue_path", params = { right = 4 } } }, agent = { 90, 90 }, paths = paths })
  w:step(200) -- 10 s: the object at (130, 100); 4 to its right is +y
  local a = w:agent()
  t.less(t.length(a.x - 130, a.y - 104), 0.5)
  t.near2(a.vx, a.vy, 3, 0, 0.1)
end)
