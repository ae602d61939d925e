-- behaviours/tests/avoid_flock_test.lua — what behaviours/avoid_flock.lua promises, in real worlds (flockbox test behaviours/).
-- The other flock's nearest member within range 16 pushes away, sqrt((range - d) / (range - comfort)),
-- full (max_accel 20) inside comfort 6; sideways too when it is ahead.
local t = require("flockbox.test")

local function push(agent, dx, dy, params)
  params = params or {}
  params.other = params.other or "aqua"
  return t.steer("avoid_flock", { agent = agent, mates = { { dx, dy, species = "aqua" } }, species = { collide = false } },
    params)
end

t.test("pushed straight away from a member beside it", function()
  local ax, ay = push({ 100, 100, 0, 5 }, 10, 0)
  t.near2(ax, ay, -20 * math.sqrt(0.6), 0, 1e-9)
end)

t.test("full push inside the comfort radius", function()
  local ax, ay = push({ 100, 100, 5, 0 }, -4, 0)
  t.near2(ax, ay, 20, 0, 1e-9)
end)

t.test("sidesteps a member ahead, away from its side", function()
  local ax, ay = push({ 100, 100, 5, 0 }, 8, 6)
  local side = math.sqrt(0.8 ^ 2 + 1.1 ^ 2) -- -(u + 0.5 r) = -((0.8, 0.6) + (0, 0.5))
  t.near2(ax, ay, -0.8 / side * 20 * math.sqrt(0.6), -1.1 / side * 20 * math.sqrt(0.6), 1e-9)
end)

t.test("nobody in range, or no other flock named: nothing", function()
  local ax, ay = push({ 100, 100, 5, 0 }, 20, 0)
  t.zero(ax, ay)
  ax, ay = push({ 100, 100, 5, 0 }, 4, 0, { other = "" })
  t.zero(ax, ay)
end)

t.test("its own flock is not avoided", function()
  local ax, ay = t.steer("avoid_flock", { agent = { 100, 100, 5, 0 }, mates = { { 4, 0 } }, species = { collide = false },
    others = { aqua = {} } },
    { other = "aqua" })
  t.zero(ax, ay)
end)

t.test("range not above comfort is refused", function()
  t.fails(function()
    t.world({ rule = "avoid_flock", params = { other = "aqua", comfort = 6, range = 6 } })
  end, "range")
end)

t.test("heading at a member of the other flock, it stays out of its comfort radius and turns aside", function()
  local w = t.world({ rules = { { "avoid_flock", params = { other = "aqua" } } }, agent = { 60, 100, 5, 0 },
    mates = { { 40, 0, species = "aqua" } }, species = { collide = false } })
  local closest = math.huge
  for _ = 1, 200 do
    w:step(1)
    closest = math.min(closest, w:distance(1, 2))
  end
  t.greater(closest, 6, "outside comfort")
  t.greater(math.abs(w:agent().y - 100), 5, "turned aside")
end)
