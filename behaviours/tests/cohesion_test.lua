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

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- Flock-mates at (8, -3) and (12, 3): centre 10 to the right; a = 10 / 100 / 0.05^2 = 40 at Parker's
-- step T = 0.05, whatever the world's dt.
local crowd = { { 8, -3 }, { 12, 3 } }
t.test("worked: centre 10 to the right, 40", function()
  expect(40, 0, 1e-9, "cohesion", case(0, 0, crowd))
end)
t.test("worked: divisor 50 gives 80; at step 0.1, 20", function()
  expect(80, 0, 1e-9, "cohesion", case(0, 0, crowd), { divisor = 50 })
  expect(20, 0, 1e-9, "cohesion", case(0, 0, crowd), { divisor = 50, step = 0.1 })
end)
t.test("worked: no flock-mates, nothing", function()
  expect(0, 0, 1e-9, "cohesion", case(3, 1))
end)
t.test("worked: divisor 0 refused", function()
  t.fails(function() t.world({ rule = "cohesion", params = { divisor = 0 } }) end, "divisor")
end)
