-- behaviours/tests/swarm_point_test.lua — what behaviours/swarm_point.lua promises, in real worlds (flockbox test behaviours/).
-- Parker's pull toward the lamp, (q - p) / 100 / 0.05^2, and within repel 6 of it a push away,
-- max_accel sqrt((repel - d) / repel).
local t = require("flockbox.test")

local function steer(lamp, params)
  return t.steer("swarm_point", { agent = { 100, 100 }, goals = { lamp = lamp } }, params)
end

t.test("pulled toward the lamp", function()
  local ax, ay = steer({ 150, 100 })
  t.near2(ax, ay, 200, 0, 1e-9)
end)

t.test("repelled close to the lamp", function()
  local ax, ay = steer({ 103, 100 })
  t.near2(ax, ay, 12 - 20 * math.sqrt(0.5), 0, 1e-9)
end)

t.test("no lamp: nothing", function()
  local ax, ay = steer({ 150, 100 }, { goal = "nowhere" })
  t.zero(ax, ay)
end)

t.test("divisor 0 is refused", function()
  t.fails(function()
    t.world({ rule = "swarm_point", params = { divisor = 0 } })
  end, "divisor")
end)

t.test("over a run it keeps round the lamp", function()
  local w = t.world({ rules = { "swarm_point" }, agent = { 100, 70, 3, 0 }, goals = { lamp = { 100, 100 } } })
  local far = 0
  for _ = 1, 400 do
    w:step(1)
    far = math.max(far, t.length(w:agent().x - 100, w:agent().y - 100))
  end
  t.less(far, 45)
end)
