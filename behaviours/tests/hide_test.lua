-- behaviours/tests/hide_test.lua — what behaviours/hide.lua promises, in real worlds (flockbox test behaviours/).
-- The spot behind the nearest obstacle (within range 40), on the far side from the threat, gap 1
-- past its surface plus the body radius 0.5; arrive there at cruise 7; no obstacle: flee.
local t = require("flockbox.test")

local pillar = { { circle = { 110, 100, 2 } } }

local function steer(agent, threat, obstacles, params)
  return t.steer("hide", { agent = agent, mates = { { threat[1], threat[2], species = "threat" } },
    others = { threat = {} }, obstacles = obstacles or pillar, species = { collide = false } }, params)
end

t.test("heads behind the pillar, away from the threat", function()
  local ax, ay = steer({ 100, 100, 5, 0 }, { -10, 0 }) -- the spot (113.5, 100)
  t.near2(ax, ay, 8, 0, 1e-9) -- (7 - 5) / 5 * 20
end)

t.test("at cruising speed toward the spot: nothing", function()
  local ax, ay = steer({ 100, 100, 7, 0 }, { -10, 0 })
  t.zero(ax, ay, 1e-9)
end)

t.test("behind the pillar whose spot is nearest", function()
  -- a second pillar of radius 1 at (0, 5) from the agent: its spot (2.236, 6.118), nearer than 13.5
  local two = { pillar[1], { circle = { 100, 105, 1 } } }
  local u = 2.5 / math.sqrt(125)
  local sx, sy = 10 * u, 5 + 5 * u
  local sl = math.sqrt(sx * sx + sy * sy)
  local ax, ay = steer({ 100, 100 }, { -10, 0 }, two)
  t.near2(ax, ay, sx / sl * 20, sy / sl * 20, 1e-9)
end)

t.test("no obstacle within range: flees the threat", function()
  local ax, ay = steer({ 100, 100 }, { 0, -10 }, nil, { range = 5 })
  t.near2(ax, ay, 0, 20, 1e-9)
end)

t.test("no threat in sight: nothing", function()
  local ax, ay = steer({ 100, 100 }, { 0, 80 })
  t.zero(ax, ay)
end)

t.test("over a run it ends hidden behind the pillar", function()
  local w = t.world({ rules = { "hide" }, agent = { 105, 110 }, mates = { { -15, -10, species = "threat" } },
    others = { threat = {} }, obstacles = pillar })
  w:step(200)
  local a = w:agent()
  t.less(t.length(a.x - 113.5, a.y - 100), 1)
end)
