-- behaviours/tests/avoid_unaligned_test.lua — what behaviours/avoid_unaligned.lua promises, in real worlds (flockbox test behaviours/).
-- Moving (2, 0), its right is +y; horizon 3 s, clearance 1 + 0.5; force max_accel 20, brake 0.5.
local t = require("flockbox.test")

local SEE_ALL = { collide = false, vision = { radius = 20, fov = 360 } }

local function dodge(mates, params)
  return t.steer("avoid_unaligned", { agent = { 100, 100, 2, 0 }, mates = mates, species = SEE_ALL }, params)
end

-- (4, -4.5) moving (0, 2): nearest at t = 17 / 8 = 2.125 s, then at (-0.25, -0.25): left and behind.
local k = 20 * (1 - 2.125 / 3)

t.test("passes one that will cross behind it: to the right, and faster", function()
  local ax, ay = dodge({ { 4, -4.5, 0, 2 } })
  t.near2(ax, ay, 0.5 * k, k, 1e-9)
end)

t.test("turns left and slows for one that will be ahead on its right", function()
  local ax, ay = dodge({ { 5, -4, 0, 2 } }) -- t = 2.25, q = (0.5, 0.5): k = 5
  t.near2(ax, ay, -2.5, -5, 1e-9)
end)

t.test("dodges the soonest threat", function()
  local ax, ay = dodge({ { 5, -4, 0, 2 }, { 4, -4.5, 0, 2 } })
  t.near2(ax, ay, 0.5 * k, k, 1e-9)
end)

t.test("a miss, or a crossing past the horizon: nothing", function()
  local ax, ay = dodge({ { 4, -10, 0, 2 } })
  t.zero(ax, ay)
end)

t.test("head on: passes on the right", function()
  local ax, ay = dodge({ { 10, 0, -2, 0 } }) -- t = 2.5, dead ahead: no brake
  t.near2(ax, ay, 0, 20 / 6, 1e-9)
end)

t.test("horizon 0 is refused", function()
  t.fails(function()
    t.world({ rule = "avoid_unaligned", params = { horizon = 0 } })
  end, "horizon")
end)

t.test("two agents crossing paths at right angles do not meet", function()
  local rules = { "avoid_unaligned" }
  local w = t.world({ rules = rules, agent = { 80, 100, 2, 0 }, mates = { { 20, -20, 0, 2 } }, species = SEE_ALL })
  local closest = math.huge
  for _ = 1, 300 do
    w:step(1)
    closest = math.min(closest, w:distance(1, 2))
  end
  t.greater(closest, 1, "kept a body length apart")
  -- without the rule they would have met at (100, 100)
  local blind = t.world({ agent = { 80, 100, 2, 0 }, mates = { { 20, -20, 0, 2 } }, species = SEE_ALL })
  blind:step(200)
  t.less(blind:distance(1, 2), 0.5)
end)
