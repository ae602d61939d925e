-- behaviours/tests/netlogo_flocking_test.lua — what behaviours/netlogo_flocking.lua promises, in real worlds (flockbox test behaviours/).
-- NetLogo's Flocking: nearer than 1 to the nearest flock-mate, turn away from its heading by at most
-- 1.5 degrees; otherwise align (at most 5) then cohere (at most 3). Speed 1: a = (v_new - v) / dt.
local t = require("flockbox.test")

local function heading(degrees)
  local r = math.rad(degrees)
  return (math.cos(r) - 1) / 0.05, math.sin(r) / 0.05
end

t.test("aligns 5 degrees toward a flock-mate's heading, coheres 3 back toward it", function()
  local ax, ay = t.steer("netlogo_flocking", { agent = { 100, 100, 1, 0 }, mates = { { 2, 0, 0, 1 } } })
  local wx, wy = heading(2)
  t.near2(ax, ay, wx, wy, 1e-9)
end)

t.test("too close: turns away from the nearest one's heading", function()
  local ax, ay = t.steer("netlogo_flocking", { agent = { 100, 100, 1, 0 }, mates = { { 0.5, 0, 0, 1 } },
    species = { collide = false } })
  local wx, wy = heading(-1.5)
  t.near2(ax, ay, wx, wy, 1e-9)
end)

t.test("alone: straight on at its speed", function()
  local ax, ay = t.steer("netlogo_flocking", { agent = { 100, 100, 1, 0 } })
  t.zero(ax, ay, 1e-9)
end)

t.test("a loose group comes to head the same way", function()
  local mates = { { 3, 0, 0, 1 }, { 0, 3, -1, 0 }, { -3, 0, 0.7, 0.7 }, { 0, -3, 0.7, -0.7 } }
  local w = t.world({ rules = { "netlogo_flocking" }, agent = { 100, 100, 1, 0 }, mates = mates,
    species = { collide = false, vision = { radius = 10, fov = 360 } } })
  w:step(200)
  local sx, sy = 0, 0
  for _, a in ipairs(w:agents()) do
    sx, sy = sx + a.vx / a.speed, sy + a.vy / a.speed
  end
  t.greater(t.length(sx, sy) / 5, 0.95)
end)
