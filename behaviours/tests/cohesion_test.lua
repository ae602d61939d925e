-- behaviours/tests/cohesion_test.lua — what behaviours/cohesion.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("pulls towards the flock-mates' centre", function()
  local ax, ay = t.steer("cohesion", { agent = { 100, 100, 1, 0 }, mates = { { 4, 0 }, { 4, 4 } } })
  t.towards(ax, ay, 4, 2)
end)

t.test("nothing in view: no pull", function()
  local ax, ay = t.steer("cohesion", { agent = { 100, 100, 1, 0 } })
  t.zero(ax, ay)
end)

t.test("a flock drawn together: the spread shrinks", function()
  local w = t.world({ rules = { "cohesion" }, species = { vision = { radius = 40, fov = 360 } },
    mates = { { 10, 0 }, { 0, 10 }, { -10, 0 }, { 0, -10 } } })
  local function spread()
    local far = 0
    for _, a in ipairs(w:agents()) do
      far = math.max(far, t.length(a.x - 100, a.y - 100))
    end
    return far
  end
  local before = spread()
  w:step(20)
  t.less(spread(), before)
end)
