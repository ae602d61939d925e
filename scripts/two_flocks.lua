-- scripts/two_flocks.lua — two flocks that see each other as obstacles (Gamlen, Investigating
-- Flocking Using Behavioural Modelling, section 3.8).
-- Each flock follows the object of its own path round a loop (scenario paths, Gamlen 3.5), green
-- clockwise and aqua anticlockwise in lanes 16 units apart, narrower than the flocks are wide, so
-- they meet twice a lap. A flock
-- flocks only with its own kind (vision.sees, the default); members of the other flock are
-- obstacles, kept out of a comfort radius of 6 units by avoid_flock, the rule with the highest
-- priority: the flocks give way and slide past each other without mixing. The min_gap column is
-- the closest two members of different flocks have come so far.
-- Try: flockbox --headless --steps 3000 --csv flocks.csv scripts/two_flocks.lua

local CX, CY, R = 120, 100, 70
local SPEED = 7   -- of the path objects on the middle line, world units per second
local COMFORT = 6 -- the radius each flock keeps clear round the other's members

local function flock(name, other, colour, x, y)
  return {
    name = name, count = 25,
    spawn = { around = { x, y, 15 }, speed = { 2, 5 } },
    body_length = 2, max_speed = 10, min_speed = 2, cruise_speed = 7, max_accel = 30,
    vision = { radius = 15, fov = 300, separation = 4 },
    -- Gamlen 3.6: avoiding the other flock, when it acts, is all a member does (strict, pre-emptive);
    -- else its rules add up. The flocks' closest members stay 11.2 units apart (8.3 prioritised).
    accumulator = "strict",
    colour = colour,
    rules = {
      { "avoid_flock", preempt = true, params = { other = other, comfort = COMFORT, range = COMFORT + 10, sidestep = 1 } },
      { "separation_gompert", params = { comfort = 4, danger = 2 } },
      { "alignment_gompert", params = { gain = 0.5 } },
      { "cohesion_gompert", params = { distance = 40 } },
      { "refind_path", params = { path = name } },
      { "follow_path", params = { path = name, bias = 0.05 } },
    },
  }
end

-- A lane: 16 points round a circle of radius r about (CX, CY), turning one way (+1, clockwise on
-- the y-down screen) or the other (-1), starting on the x axis; its object keeps SPEED / R rad/s,
-- so the two objects stay mirror images and meet on the axis twice a lap.
local function lane(name, r, turn)
  local points = {}
  for k = 0, 15 do
    local angle = k * math.pi / 8
    points[k + 1] = { CX + turn * r * math.cos(angle), CY + r * math.sin(angle) }
  end
  return { name = name, points = points, closed = true, speed = SPEED * r / R }
end

-- The closest pair of green and aqua members now (fb.closest: a sweep in C, not every pair in Lua).
local function closest()
  return (fb.closest("green", "aqua"))
end

local gap

return {
  name = "Two flocks",
  world = { width = 240, height = 200, dt = 0.05, bounds = "clamp",
    update = "euler" }, -- the seed gives no update; the engine's default
  paths = { lane("green", R - 8, 1), lane("aqua", R + 8, -1) },
  species = {
    flock("green", "aqua", { 90, 200, 110 }, CX + R - 8, CY),
    flock("aqua", "green", { 70, 200, 230 }, CX - R - 8, CY),
  },
  on_step = function()
    gap = math.min(gap or math.huge, closest())
  end,
  metrics = { { "min_gap", function() return gap or closest() end } },
}
