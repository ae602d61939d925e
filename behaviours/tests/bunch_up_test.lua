-- behaviours/tests/bunch_up_test.lua — what behaviours/bunch_up.lua promises, in real worlds (flockbox test behaviours/).
-- Comfort 8 with no predator near, shrinking to tight 3 as the predator comes from far 60 to near 15
-- (measured from the flock-mates' centre); the push is Gompert's comfort/danger one (ratio 0.5), max_accel 20.
local t = require("flockbox.test")

local function push(mates)
  return t.steer("bunch_up", { agent = { 100, 100 }, mates = mates,
    species = { collide = false, vision = { radius = 10, fov = 360 } }, others = { predator = {} } })
end

t.test("no predator: flock-mates kept out of the full comfort radius", function()
  local ax, ay = push({ { 6, 0 } })
  t.near2(ax, ay, -20 * 7 / 12, 0, 1e-9) -- (64 - 36) / (64 - 16)
end)

t.test("a predator nearing shrinks the radius", function()
  -- 30 from the centre (6, 0): C = 3 + 5 (30 - 15) / 45 = 4.67 < 6: no longer too close
  local ax, ay = push({ { 6, 0 }, { 36, 0, species = "predator" } })
  t.zero(ax, ay)
end)

t.test("tightest with the predator within near", function()
  -- 10 from the centre (2, 0): C = 3, D = 1.5; the mate at 2: (9 - 4) / (9 - 2.25)
  local ax, ay = push({ { 2, 0 }, { 12, 0, species = "predator" } })
  t.near2(ax, ay, -20 * 5 / 6.75, 0, 1e-9)
end)

t.test("tight above comfort is refused", function()
  t.fails(function()
    t.world({ rule = "bunch_up", params = { tight = 9 } })
  end, "tight")
end)

t.test("a tight herd spreads less with a predator near than without", function()
  local function spread(predator)
    local mates = { { 2, 0 }, { 0, 2 }, { 2, 2 }, { -2, 0 }, { 0, -2 } }
    if predator then
      mates[#mates + 1] = { 12, 12, species = "predator" }
    end
    local w = t.world({ rules = { "bunch_up" }, agent = { 100, 100 }, mates = mates,
      species = { collide = false, vision = { radius = 20, fov = 360 } }, others = { predator = {} } })
    w:step(40)
    local herd, sum = w:agents("me"), 0
    for _, a in ipairs(herd) do
      sum = sum + t.length(a.x - herd[1].x, a.y - herd[1].y)
    end
    return sum / (#herd - 1)
  end
  t.less(spread(true), spread(false) / 1.5)
end)
