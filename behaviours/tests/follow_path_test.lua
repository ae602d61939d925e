-- behaviours/tests/follow_path_test.lua — what behaviours/follow_path.lua promises, in real worlds (flockbox test behaviours/).
-- Gamlen's path bias: the wanted velocity is (q - p) / step (capped at max_speed 10), and bias of the
-- difference is closed per step: a = bias (w - v) / step, step 0.05 s, bias 0.02.
local t = require("flockbox.test")

-- A straight path along y = 100 whose object stands at (100, 100) (speed 0) or moves +x.
local function route(speed)
  return { { name = "route", points = { { 0, 100 }, { 200, 100 } }, speed = speed or 0, start = 0.5 } }
end

local function steer(agent, params, world)
  return t.steer("follow_path", { agent = agent, paths = route(), world = world }, params)
end

t.test("a small bias toward the path's object", function()
  local ax, ay = steer({ 99.8, 100 })
  t.near2(ax, ay, 1.6, 0, 1e-9) -- w = (0.2, 0) / 0.05 = (4, 0); 0.02 * 4 / 0.05
end)

t.test("at the object's pace: nothing", function()
  local ax, ay = steer({ 99.8, 100, 4, 0 })
  t.zero(ax, ay, 1e-9)
end)

t.test("on the object: damps the velocity", function()
  local ax, ay = steer({ 100, 100, 0, 2 })
  t.near2(ax, ay, 0, -0.8, 1e-9)
end)

t.test("the wanted speed is capped at max_speed", function()
  local ax, ay = steer({ 0, 100 })
  t.near2(ax, ay, 4, 0, 1e-9) -- 0.02 * 10 / 0.05
end)

t.test("the engine's dt does not enter it", function()
  local ax, ay = steer({ 0, 100 }, nil, { dt = 0.01 })
  t.near2(ax, ay, 4, 0, 1e-9)
end)

t.test("the reference step", function()
  local ax, ay = steer({ 99.8, 100 }, { bias = 0.04, step = 0.1 })
  t.near2(ax, ay, 0.8, 0, 1e-9) -- wants (2, 0); 0.04 * 2 / 0.1
end)

t.test("no such path: nothing", function()
  local ax, ay = steer({ 0, 100 }, { path = "nowhere" })
  t.zero(ax, ay)
end)

t.test("over a run it settles onto the moving object", function()
  local w = t.world({ rules = { "follow_path" }, agent = { 100, 120 }, paths = route(3) })
  w:step(400) -- 20 s: the object has gone 60 along
  local a = w:agent()
  t.less(t.length(a.x - 160, a.y - 100), 2)
end)
