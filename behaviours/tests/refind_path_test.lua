-- behaviours/tests/refind_path_test.lua — what behaviours/refind_path.lua promises, in real worlds (flockbox test behaviours/).
-- A member that sees fewer flock-mates than fewer_than (1: none) heads for the path's object at
-- full speed: all of max_accel 20 along the missing velocity.
local t = require("flockbox.test")

-- The object stands at (100, 100).
local paths = { { name = "route", points = { { 0, 100 }, { 200, 100 } }, speed = 0, start = 0.5 } }

local function steer(agent, mates, params)
  return t.steer("refind_path", { agent = agent, mates = mates, paths = paths, species = { collide = false } }, params)
end

t.test("lost: heads straight for the object", function()
  local ax, ay = steer({ 70, 60 })
  t.near2(ax, ay, 12, 16, 1e-9)
end)

t.test("turns a member flying away", function()
  local ax, ay = steer({ 70, 60, 0, -10 })
  local l = math.sqrt(6 * 6 + 18 * 18) -- (6, 8) - (0, -10)
  t.near2(ax, ay, 20 * 6 / l, 20 * 18 / l, 1e-9)
end)

t.test("already on its way at full speed: nothing", function()
  local ax, ay = steer({ 70, 60, 6, 8 })
  t.zero(ax, ay, 1e-9)
end)

t.test("a flock-mate in view: not lost", function()
  local ax, ay = steer({ 70, 60 }, { { 3, 3 } })
  t.zero(ax, ay)
end)

t.test("fewer_than 3: one flock-mate in view is lost", function()
  local ax, ay = steer({ 70, 60 }, { { 3, 3 } }, { fewer_than = 3 })
  t.near2(ax, ay, 12, 16, 1e-9)
end)

t.test("no such path: nothing", function()
  local ax, ay = steer({ 70, 60 }, nil, { path = "nowhere" })
  t.zero(ax, ay)
end)
