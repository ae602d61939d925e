-- behaviours/tests/steering_library_test.lua — the steering library's own functions, worked by hand, run in the engine's rule sandbox (moved from tests/rules_test.lua's mock).
-- Each call goes through steering_call.lua, a rule that calls steering[fn] with numbers from its
-- params, so the library is the one every rule gets, loaded as the engine loads it.
local t = require("flockbox.test")

-- max_speed 10, max_accel 20: match_velocity gives 20 (w - v) / 5 = 4 (w - v) while |w - v| <= 5.
local S = { max_speed = 10, max_accel = 20, body_length = 1, collide = false }

-- steering[fn](...) for an agent at rest at (100, 100) heading +x: the results r1..r4.
local function call(fn, with_agent, ...)
  local args = table.pack(...)
  local params = { fn = fn, with_agent = with_agent, n = args.n }
  for k = 1, args.n do
    params["x" .. k] = args[k]
  end
  local _, _, w = t.steer("steering_call", { agent = { 100, 100 }, species = S }, params)
  return w:field("r1"), w:field("r2"), w:field("r3"), w:field("r4")
end

-- offset_pursuit(a, s, dx, dy, lvx, lvy, hx, hy, ahead, right, T, speed, gain, turn): the leader at
-- the agent moving (1, 0), heading +x, the slot 2 behind it, turning at 0.5 rad/s: o = (-2, 0), the
-- slot's velocity (1, 0) + 0.5 perp(o) = (1, -1); w = (1, -1) + q0 / T = (-1, -1); from rest 4 w.
-- (speed 10 is the default, max_speed: the mock passed nil.)
t.test("offset_pursuit: the slot swings with a turning leader", function()
  local ax, ay = call("offset_pursuit", true, 0, 0, 1, 0, 1, 0, -2, 0, 1, 10, 1, 0.5)
  t.near2(ax, ay, -4, -4, 1e-9)
end)
-- No turn: w = (1, 0) + (-2, 0) = (-1, 0): (-4, 0). T = 2: w = (1, 0) + (-1, 0) = 0: nothing.
t.test("offset_pursuit: no turn, and at T = 2", function()
  local ax, ay = call("offset_pursuit", true, 0, 0, 1, 0, 1, 0, -2, 0, 1)
  t.near2(ax, ay, -4, 0, 1e-9)
  ax, ay = call("offset_pursuit", true, 0, 0, 1, 0, 1, 0, -2, 0, 2)
  t.near2(ax, ay, 0, 0, 1e-9)
end)
-- Far away (100, 0) and the slot at it: w = (1, 0) + (100, 0), capped at 10; from rest, capped: (20, 0).
t.test("offset_pursuit: pursues flat out from afar", function()
  local ax, ay = call("offset_pursuit", true, 100, 0, 1, 0, 1, 0, 0, 0, 1)
  t.near2(ax, ay, 20, 0, 1e-9)
end)
-- from_local: 3 ahead and 2 right of heading (0, 1) (down the screen): (0, 3) + 2 (-1, 0) = (-2, 3).
t.test("from_local: heading (0, 1)", function()
  local x, y = call("from_local", false, 0, 1, 3, 2)
  t.near2(x, y, -2, 3, 1e-12)
end)
-- nearest_approach: (4, -4.5) closing at (-2, 2): t = -(d . rv) / |rv|^2 = 17 / 8 = 2.125,
-- q = (-0.25, -0.25), |q| = sqrt 0.125. Drawing away, (4, 0) at (1, 0): nearest now, t = 0.
t.test("nearest_approach: the time, offset and distance of nearest approach", function()
  local tn, qx, qy, d = call("nearest_approach", false, 4, -4.5, -2, 2, 3)
  t.near(tn, 2.125, 1e-12)
  t.near2(qx, qy, -0.25, -0.25, 1e-12)
  t.near(d, math.sqrt(0.125), 1e-12)
  tn, qx = call("nearest_approach", false, 4, 0, 1, 0, 3)
  t.equal(tn, 0, "drawing away is nearest now")
  t.equal(qx, 4)
end)
