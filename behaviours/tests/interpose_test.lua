-- behaviours/tests/interpose_test.lua — what behaviours/interpose.lua promises, in real worlds (flockbox test behaviours/).
-- Arrive (at max_speed 10) at the midpoint of where the vip and the threat will be when it gets there.
local t = require("flockbox.test")

local function steer(vip, threat, params)
  local mates = { { vip[1], vip[2], vip[3], vip[4], species = "vip" } }
  if threat then
    mates[2] = { threat[1], threat[2], species = "threat" }
  end
  return t.steer("interpose", { agent = { 100, 100 }, mates = mates, others = { vip = {}, threat = {} },
    species = { collide = false } }, params)
end

t.test("to the midpoint of the two", function()
  local ax, ay = steer({ 2, 0 }, { 2, 2 })
  t.near2(ax, ay, 8, 4, 1e-9) -- (2, 1) / 5 * 20
end)

t.test("to the midpoint of where they will be", function()
  local T = math.sqrt(5) / 10 -- |(2, 1)| / max_speed; the vip moves (1, 0)
  local ax, ay = steer({ 2, 0, 1, 0 }, { 2, 2 })
  t.near2(ax, ay, (2 + T / 2) * 4, 4, 1e-9)
end)

t.test("one of the two out of sight: nothing", function()
  local ax, ay = steer({ 2, 0 }, nil)
  t.zero(ax, ay)
  ax, ay = steer({ 2, 0 }, { 2, 20 }, { sight = 10 })
  t.zero(ax, ay)
end)

t.test("over a run it stands between them", function()
  local w = t.world({ rules = { "interpose" }, agent = { 100, 100 }, others = { vip = {}, threat = {} },
    mates = { { 30, 0, species = "vip" }, { 30, 40, species = "threat" } } })
  w:step(200)
  local a = w:agent()
  t.less(t.length(a.x - 130, a.y - 120), 0.5)
end)
