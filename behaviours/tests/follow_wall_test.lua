-- behaviours/tests/follow_wall_test.lua — what behaviours/follow_wall.lua promises, in real worlds (flockbox test behaviours/).
-- Heading +x at cruise 7 with a wall below (+y, its right): it runs along the wall at the species'
-- cruise speed and closes the gap to offset 3: a = gain (S t + (gain / 4) (o - d) n - v), gain 6.
local t = require("flockbox.test")

-- A wall whose surface is y = 100 + gap, under the agent at (100, 100); `right` ends it at that x.
local function wall(gap, right)
  local top = 100 + gap
  return { { polygon = { { 0, top }, { right or 200, top }, { right or 200, 200 }, { 0, 200 } } } }
end

local function steer(agent, obstacles, params)
  return t.steer("follow_wall", { agent = agent, obstacles = obstacles }, params)
end

t.test("runs along the wall and closes the gap", function()
  local ax, ay, w = steer({ 100, 100, 7, 0 }, wall(4))
  t.near2(ax, ay, 0, 9, 1e-9) -- w = (7, 0) - 1.5 (0, -1); 6 (w - v)
  t.near(w:field("wall_gap"), 1, 1e-9, "|d - o|")
end)

t.test("a wall on the left runs the other way", function()
  local ax, ay = steer({ 100, 100, 7, 0 }, wall(4), { side = "left" })
  t.near2(ax, ay, -84, 9, 1e-9)
end)

t.test("at the offset and at speed: nothing to change", function()
  local ax, ay = steer({ 100, 100, 7, 0 }, wall(3))
  t.zero(ax, ay, 1e-9)
end)

t.test("rounds a corner", function()
  -- the nearest point is the corner (97, 104), 5 away: n = (0.6, -0.8), t = (0.8, 0.6)
  local ax, ay = steer({ 100, 100, 7, 0 }, wall(4, 97))
  t.near2(ax, ay, -19.2, 39.6, 1e-9)
end)

t.test("no wall in range: nothing, and the gap reads range - offset", function()
  local ax, ay, w = steer({ 100, 100, 7, 0 }, wall(20))
  t.zero(ax, ay)
  t.equal(w:field("wall_gap"), 9)
end)

t.test("a side that is neither right nor left is refused", function()
  t.fails(function()
    t.world({ rule = "follow_wall", params = { side = "up" } })
  end, "side")
end)

t.test("over a run it settles at the offset, at cruise speed", function()
  local w = t.world({ rules = { "follow_wall" }, agent = { 20, 96, 7, 0 }, obstacles = wall(8) })
  w:step(100)
  local a = w:agent()
  t.near(a.y, 105, 0.1, "3 above the wall at 108")
  t.near2(a.vx, a.vy, 7, 0, 0.1)
end)
