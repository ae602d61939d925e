-- behaviours/tests/terrain_drag_test.lua — what behaviours/terrain_drag.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("climbing a slope is resisted", function()
  local ax = t.steer("terrain_drag", { agent = { 100, 100, 2, 0 }, terrain = { slope = { 0.5, 0 } } })
  t.less(ax, 0, "a drag against the climb")
end)

t.test("on flat ground: no drag", function()
  local ax, ay = t.steer("terrain_drag", { agent = { 100, 100, 2, 0 } })
  t.zero(ax, ay)
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- Gompert eq. 14, K = 30 uphill and 6 downhill: F = -K (v . g) g / |g|. The terrain is a plane
-- sampled into a 16-bit PNG, so the gradient is exact to about 1e-4: the forces to 0.02.
local function on(gx, gy, vx, vy)
  return case(vx, vy, nil, { terrain = { slope = { gx, gy } } })
end
-- Gradient (0.2, 0), climbing at (2, 0): v.g = 0.4, F = -30 * 0.4 = -12; descending at (-2, 0):
-- F = -6 * -0.4 = 2.4: it resists going down, less; along the contour, nothing.
t.test("worked: uphill K = 30, downhill K = 6, nothing along a contour", function()
  expect(-12, 0, 0.02, "terrain_drag", on(0.2, 0, 2, 0))
  expect(2.4, 0, 0.02, "terrain_drag", on(0.2, 0, -2, 0))
  expect(0, 0, 0.02, "terrain_drag", on(0.2, 0, 0, 2))
end)
t.test("worked: nothing on flat ground", function()
  expect(0, 0, 1e-9, "terrain_drag", case(2, 0))
end)
-- Gradient (0.12, 0.16), |g| = 0.2, v = (1, 0): v.g = 0.12, F = -30 * 0.12 * (0.6, 0.8).
t.test("worked: across a diagonal slope", function()
  expect(-2.16, -2.88, 0.02, "terrain_drag", on(0.12, 0.16, 1, 0))
end)
t.test("worked: the uphill K parameter", function()
  expect(-4, 0, 0.02, "terrain_drag", on(0.2, 0, 2, 0), { uphill = 10 })
end)
-- No cap: slope 0.5, K = 30: F = -30 * 1 = -30 (the engine's exact step keeps it from reversing the climb).
t.test("worked: no cap on K |g|", function()
  expect(-30, 0, 0.05, "terrain_drag", on(0.5, 0, 2, 0))
end)
-- Section 9.3.5: a negative K pushes agents up the slope instead.
t.test("worked: a negative K pushes up the slope", function()
  expect(4, 0, 0.02, "terrain_drag", on(0.2, 0, 2, 0), { uphill = -10 })
end)
t.test("worked: K of 100 and more, and negative K, accepted", function()
  t.world({ rule = "terrain_drag", params = { uphill = 150, downhill = 30 } })
  t.world({ rule = "terrain_drag", params = { uphill = -10, downhill = -2 } })
end)
