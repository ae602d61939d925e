-- behaviours/tests/follow_flow_headway_test.lua — what behaviours/follow_flow_headway.lua promises, in real worlds (flockbox test behaviours/).
-- a = gain (V(s) e - v), V(s) = min(|w|, max(0, (s - l) / T)): the field's velocity with nobody in
-- the path, slower by the gap to the nearest body ahead in it, still at contact.
local t = require("flockbox.test")

local east = { flow = { fn = function() return 1.5, 0 end, speed = 1.5 } }
local function steer(mates, params)
  return t.steer("follow_flow_headway", { agent = { 100, 100, 0, 0 }, flow_fields = east, mates = mates,
    species = { body_length = 0.5, collide = false, vision = { radius = 5, fov = 360 } } }, params)
end

t.test("nobody in the path: the field's velocity", function()
  local ax, ay = steer({ { -1, 0 }, { 0.5, 1 } }) -- one behind, one ahead beside the path
  t.near2(ax, ay, 15, 0, 1e-6) -- 10 (1.5 - 0)
end)

t.test("a body ahead in the path slows it by the gap", function()
  -- 0.2 off the line (< l = 0.5): in the path; s = |(1, 0.2)|, T = 1: V = s - 0.5
  local ax, ay = steer({ { 1, 0.2 } })
  t.near2(ax, ay, 10 * (math.sqrt(1.04) - 0.5), 0, 1e-6)
end)

t.test("the time gap scales the speed; contact stops it", function()
  local ax = steer({ { 1, 0 } }, { time_gap = 2 })
  t.near(ax, 10 * 0.25, 1e-6) -- (1 - 0.5) / 2
  ax = steer({ { 0.4, 0 } })
  t.near(ax, 0, 1e-9)
end)
