-- behaviours/tests/follow_flow_test.lua — what behaviours/follow_flow.lua promises, in real worlds (flockbox test behaviours/).
-- a = gain (w(p + v T) - v): the velocity turns into the field's, read where the agent will be.
local t = require("flockbox.test")

-- +y in the left half of the world, -y in the right half (speed 4).
local halves = { flow = { fn = function(x)
  return 0, x < 100 and 4 or -4
end, speed = 4 } }

t.test("turns its velocity into the field's", function()
  local ax, ay = t.steer("follow_flow", { agent = { 40, 100, 0, 0 }, flow_fields = halves })
  t.near2(ax, ay, 0, 8, 1e-9) -- 2 ((0, 4) - (0, 0))
end)

t.test("reads the field where it will be, predict seconds on", function()
  -- at x = 90 moving +x at 40: in 0.5 s at x = 110, where the field runs -y
  local ax, ay = t.steer("follow_flow", { agent = { 90, 100, 40, 0 }, flow_fields = halves })
  t.near2(ax, ay, -80, -8, 1e-9)
  -- predict 0: the field here, +y
  ax, ay = t.steer("follow_flow", { agent = { 90, 100, 40, 0 }, flow_fields = halves }, { predict = 0 })
  t.near2(ax, ay, -80, 8, 1e-9)
end)

t.test("drifts with the field over time", function()
  local w = t.world({ rules = { "follow_flow" }, agent = { 40, 40, 3, 0 }, flow_fields = halves })
  w:step(100)
  local a = w:agent()
  t.near2(a.vx, a.vy, 0, 4, 0.05)
end)
