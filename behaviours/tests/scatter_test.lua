-- behaviours/tests/scatter_test.lua — what behaviours/scatter.lua promises, in real worlds (flockbox test behaviours/).
-- Parker's scatter: calm, it is his cohesion, (c - p) / 100 / 0.05^2; startled (by the scenario's
-- startle, or a `from` agent within alarm) it is multiplied by m1 (-1) for duration (3) seconds.
local t = require("flockbox.test")

local SEE = { collide = false, vision = { radius = 20, fov = 360 } }
local CROWD = { { 8, -3 }, { 12, 3 } } -- centre 10 to the right

t.test("calm: plain cohesion", function()
  local ax, ay, w = t.steer("scatter", { agent = { 100, 100 }, mates = CROWD, species = SEE })
  t.near2(ax, ay, 40, 0, 1e-9)
  t.equal(w:field("scatter"), 0)
end)

t.test("startled by the scenario: cohesion negated for duration seconds", function()
  local ax, ay, w = t.steer("scatter", { agent = { 100, 100 }, mates = CROWD, species = SEE }, { startle = 1 })
  t.near2(ax, ay, -40, 0, 1e-9)
  t.equal(w:field("scatter"), 3)
end)

t.test("startled by a predator within the alarm radius", function()
  local mates = { CROWD[1], CROWD[2], { 5, 5, species = "wolf" } }
  local ax, ay = t.steer("scatter", { agent = { 100, 100 }, mates = mates, species = SEE, others = { wolf = {} } },
    { from = "wolf", alarm = 10, multiplier = -2 })
  t.near2(ax, ay, -80, 0, 1e-9)
end)

t.test("after a scare it scatters for duration seconds, counting down, then flocks again", function()
  -- the wolf runs through and is gone after one step
  local mates = { { 8, -3 }, { 12, 3 }, { 5, 5, 400, 0, species = "wolf" } }
  local w = t.world({ rules = { { "scatter", params = { from = "wolf", alarm = 10 } } }, agent = { 100, 100 },
    mates = mates, species = SEE, others = { wolf = {} } })
  for step = 1, 70 do
    local before, cx, cy, n = w:agents("me"), 0, 0, 0
    for k = 2, #before do -- the flock-mates it sees (vision radius 20)
      if t.length(before[k].x - before[1].x, before[k].y - before[1].y) < 20 then
        cx, cy, n = cx + before[k].x, cy + before[k].y, n + 1
      end
    end
    cx, cy = n > 0 and cx / n or before[1].x, n > 0 and cy / n or before[1].y
    local ax, ay = w:steer(1)
    local left = w:field("scatter")
    t.near(left, math.max(0, 3 - (step - 1) * 0.05), 1e-9, "counts down")
    local m = left > 0 and -1 or 1
    t.near2(ax, ay, m * (cx - before[1].x) * 4, m * (cy - before[1].y) * 4, 1e-9)
  end
end)
