-- scripts/dragonflies_path.lua — dragonflies that swarm round some reeds, then fly off along a river
-- (Gamlen, Investigating Flocking Using Behavioural Modelling, sections 3.5 and 3.8).
-- An invisible path object (the goal drawn as "path") moves along a closed spline at a speed this
-- script sets: still for the first 20 s, then speeding up to 9 units/s over the next 30 s. Each
-- dragonfly follows it with a small path bias, below avoiding, spacing, velocity matching and
-- centring; one that sees no flock-mate heads straight for it. While the object is still, the
-- dragonflies swarm round it; as it accelerates they become a mobile swarm, then a flock, and at
-- full speed they string out behind it almost in formation. Watch the polarisation column.
-- Try: flockbox --headless --steps 2400 --csv dragonflies.csv scripts/dragonflies_path.lua

-- The river: a closed Catmull-Rom spline through these points, parametrised by arc length.
local points = {
  { 60, 60 }, { 150, 40 }, { 260, 60 }, { 300, 130 }, { 240, 180 }, { 140, 160 }, { 60, 150 }, { 30, 100 },
}
local function catmull_rom(p0, p1, p2, p3, t)
  local t2, t3 = t * t, t * t * t
  local function axis(a, b, c, d)
    return 0.5 * (2 * b + (c - a) * t + (2 * a - 5 * b + 4 * c - d) * t2 + (3 * b - a - 3 * c + d) * t3)
  end
  return axis(p0[1], p1[1], p2[1], p3[1]), axis(p0[2], p1[2], p2[2], p3[2])
end
local samples, lengths = {}, { 0 }
local n = #points
for i = 1, n do
  local p0, p1, p2, p3 = points[(i - 2) % n + 1], points[i], points[i % n + 1], points[(i + 1) % n + 1]
  for k = 0, 49 do
    samples[#samples + 1] = { catmull_rom(p0, p1, p2, p3, k / 50) }
  end
end
samples[#samples + 1] = samples[1]
for k = 2, #samples do
  local a, b = samples[k - 1], samples[k]
  lengths[k] = lengths[k - 1] + math.sqrt((b[1] - a[1]) ^ 2 + (b[2] - a[2]) ^ 2)
end
local total = lengths[#lengths]

-- The point at arc length s along the loop.
local function point_at(s)
  s = s % total
  local lo, hi = 1, #lengths
  while hi - lo > 1 do
    local mid = (lo + hi) // 2
    if lengths[mid] <= s then lo = mid else hi = mid end
  end
  local f = (s - lengths[lo]) / (lengths[hi] - lengths[lo])
  return samples[lo][1] + f * (samples[hi][1] - samples[lo][1]), samples[lo][2] + f * (samples[hi][2] - samples[lo][2])
end

-- The path object's speed: still, then accelerating, then cruising.
local STILL, RAMP, TOP = 20, 30, 9
local function path_speed(t)
  if t < STILL then
    return 0
  end
  return TOP * math.min(1, (t - STILL) / RAMP)
end

local s = 0
local sx, sy = point_at(0)

return {
  name = "Dragonflies: swarm, flock, formation",
  world = { width = 330, height = 210, dt = 0.05, bounds = "clamp",
    update = "euler" }, -- the seed gives no update; the engine's default
  goals = { path = { sx, sy } },
  obstacles = {
    { circle = { 52, 50, 2.5 } }, { circle = { 66, 47, 2 } }, { circle = { 70, 66, 2.5 } }, -- reeds
    { circle = { 50, 70, 2 } },
    { polygon = { { 200, 40 }, { 225, 44 }, { 224, 50 }, { 199, 46 } } },                     -- a log
    { circle = { 312, 118, 6 } }, { circle = { 185, 180, 5 } },                                -- rocks
  },
  species = {
    {
      name = "dragonfly", count = 19,
      spawn = { around = { 60, 60, 25 }, speed = { 2, 6 } },
      body_length = 2, max_speed = 13, min_speed = 3, cruise_speed = 9, max_accel = 40,
      max_turn = 240,
      vision = { radius = 16, fov = 300, separation = 4 },
      accumulator = "prioritised",
      colour = { 80, 200, 220 },
      rules = {
        { "avoid_repulsive", params = { range = 10, reach = 3 } },
        { "separation_gompert", params = { comfort = 5, danger = 2.5 } },
        { "alignment_gompert", params = { gain = 0.5 } },
        { "cohesion_gompert", params = { distance = 40 } },
        { "follow_path", params = { goal = "path", bias = 0.04, refind = 0.3 } },
      },
    },
  },
  on_step = function(step)
    local t = step * 0.05
    s = s + path_speed(t) * 0.05
    fb.goal("path", point_at(s))
  end,
  metrics = {
    { "path_speed", function() local _, t = fb.time() return path_speed(t) end },
  },
}
