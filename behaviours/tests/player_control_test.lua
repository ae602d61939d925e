-- behaviours/tests/player_control_test.lua — what behaviours/player_control.lua promises, in real worlds (flockbox test behaviours/).
-- The species: max_speed 10 (match_velocity's scale 5), max_accel 20, cruise 7.
local t = require("flockbox.test")

t.test("full input from rest: the wanted velocity is max_speed along it, the push capped", function()
  local ax, ay = t.steer("player_control", { input = { 1, 0 } })
  t.near2(ax, ay, 20, 0, 1e-9)
end)

t.test("a small input asks for a slower velocity", function()
  local ax, ay = t.steer("player_control", { input = { 0.1, 0 } })
  t.near2(ax, ay, 4, 0, 1e-9) -- wanted (1, 0): 1 / 5 * 20
end)

t.test("a diagonal input is capped at length 1", function()
  local v = 10 / math.sqrt(2)
  local ax, ay = t.steer("player_control", { agent = { 100, 100, v, v }, input = { 1, 1 } })
  t.zero(ax, ay, 1e-9)
end)

t.test("no input: cruise on along the heading", function()
  local ax, ay = t.steer("player_control", { agent = { 100, 100, 3, 0 }, input = { 0, 0 } })
  t.near2(ax, ay, 16, 0, 1e-9) -- (7 - 3) / 5 * 20
end)

t.test("steered down the screen, it ends up going that way at max_speed", function()
  local w = t.world({ rules = { "player_control" }, agent = { 100, 50, 5, 0 }, input = { 0, 1 } })
  w:step(60)
  local a = w:agent()
  t.towards(a.vx, a.vy, 0, 1, 1)
  t.near(a.speed, 10, 0.01)
end)
