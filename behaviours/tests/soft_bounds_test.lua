-- behaviours/tests/soft_bounds_test.lua — what behaviours/soft_bounds.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("inside the play area: no push", function()
  local ax, ay = t.steer("soft_bounds", { agent = { 100, 100, 1, 0 } })
  t.zero(ax, ay)
end)

t.test("past the left margin: pushed back in", function()
  local ax, ay = t.steer("soft_bounds", { agent = { 3, 100, -1, 0 }, world = { bounds = "clamp" } })
  t.greater(ax, 0)
  t.near(ay, 0)
end)

t.test("a wrapping world has no edges: no push", function()
  local ax, ay = t.steer("soft_bounds", { agent = { 3, 100, -1, 0 }, world = { bounds = "wrap" } })
  t.zero(ax, ay)
end)
