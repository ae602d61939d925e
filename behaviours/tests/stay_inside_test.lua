-- behaviours/tests/stay_inside_test.lua — what behaviours/stay_inside.lua promises, in real worlds (flockbox test behaviours/).
-- The region is asked about p + v (predict 1 s); within margin 4 of its edge, or outside, it pushes
-- inward: F min(1, 2 e / margin), e = margin - d inside and margin + d outside; F = max_accel 20.
local t = require("flockbox.test")

-- Inside is x < 150; the inward normal at that edge is (-1, 0).
local regions = { region = { { 0, 0 }, { 150, 0 }, { 150, 200 }, { 0, 200 } } }

local function steer(agent, params)
  return t.steer("stay_inside", { agent = agent, regions = regions }, params)
end

t.test("predicted within the margin: a part push", function()
  local ax, ay = steer({ 140, 100, 7, 0 }) -- at 147: 3 from the edge, e = 1
  t.near2(ax, ay, -10, 0, 1e-9)
end)

t.test("predicted outside: the whole push", function()
  local ax, ay = steer({ 148, 100, 5, 0 }) -- at 153: e = 7
  t.near2(ax, ay, -20, 0, 1e-9)
end)

t.test("far inside: nothing", function()
  local ax, ay = steer({ 110, 100, 5, 0 })
  t.zero(ax, ay)
end)

t.test("force sets the push", function()
  local ax, ay = steer({ 148, 100, 5, 0 }, { force = 8 })
  t.near2(ax, ay, -8, 0, 1e-9)
end)

t.test("heading for the edge, it never leaves", function()
  local w = t.world({ rules = { "stay_inside" }, agent = { 100, 100, 8, 0 }, regions = regions })
  for _ = 1, 200 do
    w:step(1)
    t.less(w:agent().x, 150)
  end
end)
