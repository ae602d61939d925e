-- behaviours/tests/wander_test.lua — what behaviours/wander.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("meanders, and its steering stays bounded", function()
  local w = t.world({ rules = { "wander" }, agent = { 100, 100, 2, 0 }, species = { max_speed = 4 } })
  local turned = false
  for _ = 1, 50 do
    local ax, ay = w:steer(1)
    t.less(t.length(ax, ay), 1000, "bounded")
    turned = turned or math.abs(w:agent().hy) > 0.05
  end
  t.ok(turned, "it leaves a straight line")
end)

t.test("the same seed wanders the same way", function()
  local a = t.world({ rules = { "wander" }, agent = { 100, 100, 2, 0 }, seed = 7 }):step(40)
  local b = t.world({ rules = { "wander" }, agent = { 100, 100, 2, 0 }, seed = 7 }):step(40)
  t.equal(a:hash(), b:hash())
end)
