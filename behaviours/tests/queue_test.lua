-- behaviours/tests/queue_test.lua — what behaviours/queue.lua promises, in real worlds (flockbox test behaviours/).
-- Moving (4, 0): one in the 30-degree cone ahead within its stopping distance 4^2 / 40 + 0.5 = 0.9
-- (beyond a body length) means stop; one nearer than range 3 and slower means brake to its speed:
-- f = gain (v - want) / (max_speed / 2), capped at 1, along -heading, times max_accel 20.
local t = require("flockbox.test")

local function brake(agent, mates, params)
  return t.steer("queue", { agent = agent, mates = mates, species = { collide = false } }, params)
end

t.test("brakes behind a slower one in front", function()
  local ax, ay = brake({ 100, 100, 4, 0 }, { { 2.5, 0, 1, 0 } })
  t.near2(ax, ay, -20, 0, 1e-9)
  ax, ay = brake({ 100, 100, 4, 0 }, { { 2.5, 0, 1, 0 } }, { gain = 0.5 })
  t.near2(ax, ay, -6, 0, 1e-9) -- 0.5 * 3 / 5
end)

t.test("stops for one within the braking distance", function()
  local ax, ay = brake({ 100, 100, 4, 0 }, { { 1.8, 0, 4, 0 } }, { gain = 0.5 })
  t.near2(ax, ay, -8, 0, 1e-9) -- toward 0: 0.5 * 4 / 5
end)

t.test("brakes along its heading", function()
  local ax, ay = brake({ 100, 100, 0, 4 }, { { 0, 2.5, 0, 1 } }, { gain = 0.5 })
  t.near2(ax, ay, 0, -6, 1e-9)
end)

t.test("nothing for one outside the cone, faster, behind, or when standing", function()
  local cases = {
    { { 100, 100, 4, 0 }, { { 2, 2, 0, 0 } } },
    { { 100, 100, 4, 0 }, { { 2.5, 0, 5, 0 } } },
    { { 100, 100, 4, 0 }, { { -1.5, 0, 0, 0 } } },
    { { 100, 100, 0, 0 }, { { 1.2, 0, 0, 0 } } },
  }
  for k, case in ipairs(cases) do
    local ax, ay = brake(case[1], case[2])
    t.zero(ax, ay, 0, "case " .. k)
  end
end)

t.test("catching up a slow one, it falls in behind without touching", function()
  local w = t.world({ rules = { "queue" }, agent = { 100, 100, 4, 0 }, mates = { { 6, 0, 1, 0 } },
    species = { collide = false } })
  local closest = math.huge
  for _ = 1, 200 do
    w:step(1)
    closest = math.min(closest, w:distance(1, 2))
  end
  t.greater(closest, 1, "a body length")
  t.less(w:agent().speed, 1 + 1e-9, "at the queue's speed")
end)
