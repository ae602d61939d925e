-- behaviours/tests/couzin_test.lua — what behaviours/couzin.lua promises, in real worlds (flockbox test behaviours/).
-- Zones round a fish moving (3, 0): repulsion below 1, orientation to 3, attraction to 17 (as far as
-- the vision, 10, reaches); it turns at most turn_rate dt = 40 * 0.05 = 2 degrees a step, and moves at
-- speed 3: a = (v_new - v) / dt. Noise 0 unless a test says.
local t = require("flockbox.test")

local QUIET = { noise = 0 }

-- The steering of a fish at speed 3 heading +x that has turned by `degrees` this step.
local function turned(degrees)
  local r = math.rad(degrees)
  return (3 * math.cos(r) - 3) / 0.05, 3 * math.sin(r) / 0.05
end

local function steer(mates, params, species)
  return t.steer("couzin", { agent = { 100, 100, 3, 0 }, mates = mates, species = species or { collide = false } },
    params or QUIET)
end

t.test("repulsion: turns away from one too close, by at most 2 degrees", function()
  local ax, ay = steer({ { 0.5, 0.5 } })
  t.near2(ax, ay, turned(-2))
end)

t.test("repulsion has priority over the other zones", function()
  local ax, ay = steer({ { 0.5, 0.5 }, { 0, -2, 0, 3 }, { 0, -6 } })
  t.near2(ax, ay, turned(-2))
end)

t.test("orientation: turns toward the mean heading, its own included", function()
  local ax, ay = steer({ { 2, 0, 0, 3 } }) -- (1, 0) + (0, 1): 45 degrees
  t.near2(ax, ay, turned(2))
end)

t.test("attraction: turns toward those farther off", function()
  local ax, ay = steer({ { 0, -6 } })
  t.near2(ax, ay, turned(-2))
end)

t.test("a smaller turn than the limit is taken whole", function()
  local ax, ay = steer({ { 2, 0, 0, 3 } }, { noise = 0, turn_rate = 4000 })
  local wx, wy = turned(45)
  t.near2(ax, ay, wx, wy, 1e-9)
end)

t.test("alone it keeps straight on at its speed", function()
  local ax, ay = steer({})
  t.zero(ax, ay, 1e-9)
end)

t.test("the blind angle behind: one there is not seen", function()
  local ax, ay = steer({ { -6, 0 } }) -- the species' field of view, 270 degrees
  t.zero(ax, ay, 1e-9)
  ax, ay = steer({ { -6, 0 } }, QUIET, { collide = false, vision = { fov = 360 } })
  t.near2(ax, ay, turned(-2))
end)

t.test("noise turns it off course, the same way for the same seed", function()
  local function heading(seed)
    local w = t.world({ rules = { "couzin" }, agent = { 100, 100, 3, 0 }, seed = seed })
    w:step(20)
    local a = w:agent()
    t.near(a.speed, 3, 1e-9, "constant speed")
    return math.atan(a.vy, a.vx)
  end
  t.equal(heading(3), heading(3))
  t.ok(heading(3) ~= heading(4) and heading(3) ~= 0, "noise differs between seeds")
end)
