-- behaviours/tests/vicsek_test.lua — what behaviours/vicsek.lua promises, in real worlds (flockbox test behaviours/).
-- The new heading is the direction of the sum of its own and its neighbours' velocities, plus a
-- uniform angle in [-eta/2, eta/2]; it moves at speed 0.03: a = (v_new - v) / dt, dt 0.05.
local t = require("flockbox.test")

local SEE_ALL = { collide = false, vision = { radius = 1, fov = 360 } }

t.test("takes the mean heading of itself and its neighbours", function()
  local ax, ay = t.steer("vicsek", { agent = { 100, 100, 0.03, 0 }, mates = { { 0.5, 0, 0, 0.03 } }, species = SEE_ALL },
    { eta = 0 })
  local h = math.sqrt(0.5) * 0.03 -- 45 degrees
  t.near2(ax, ay, (h - 0.03) / 0.05, h / 0.05, 1e-12)
end)

t.test("alone and at rest: its heading at speed 0.03", function()
  local ax, ay = t.steer("vicsek", { agent = { 100, 100 } }, { eta = 0 })
  t.near2(ax, ay, 0.6, 0, 1e-12)
end)

t.test("noise: off the mean heading by at most eta / 2, differently each seed", function()
  local angles = {}
  for seed = 1, 6 do
    local ax, ay = t.steer("vicsek", { agent = { 100, 100, 0.03, 0 }, seed = seed }, { eta = 2 })
    local vx, vy = 0.03 + ax * 0.05, ay * 0.05
    t.near(t.length(vx, vy), 0.03, 1e-12, "speed")
    angles[seed] = math.atan(vy, vx)
    t.less(math.abs(angles[seed]), 1 + 1e-9, "within eta / 2")
  end
  t.ok(angles[1] ~= angles[2] or angles[2] ~= angles[3], "noise differs")
end)

t.test("without noise a group comes to move as one", function()
  local mates = {}
  for k = 1, 7 do
    local r = 2 * math.pi * k / 8
    mates[k] = { 0.2 * math.cos(r), 0.2 * math.sin(r), 0.03 * math.cos(3 * r), 0.03 * math.sin(3 * r) }
  end
  local w = t.world({ rules = { { "vicsek", params = { eta = 0 } } }, agent = { 100, 100, 0.03, 0 }, mates = mates,
    species = SEE_ALL })
  w:step(20)
  local sx, sy = 0, 0
  for _, a in ipairs(w:agents()) do
    sx, sy = sx + a.vx / a.speed, sy + a.vy / a.speed
  end
  t.greater(t.length(sx, sy) / 8, 0.999, "Vicsek's order parameter")
end)
