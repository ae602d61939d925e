-- scripts/gompert_trip.lua — one trip of Gompert's energy-vs-K experiment (Flocking Over 3D Terrain, section 5.2.3, Figure 6).
-- His set-up, in his units (appendix A): a 40 x 40 terrain, a herd of 50 animals of radius 0.05
-- started at random in [3.5, 6.5]^2 with random headings and speeds up to the maximum, heading for
-- a goal at (35, 35). The trip ends when the herd's centre is within epsilon of the goal
-- (`arrived`), or when the herd's mean energy passes 350 (`stuck`, the limit in Flock::GetAction).
-- Either way the CSV's last row holds the herd's mean energy at that moment, which is what his code
-- wrote to energy.dat: a stuck trip is charged what it had spent when it was given up.
-- One more limit, ours: a herd held still by the drag spends almost nothing and would never reach
-- 350, so a trip also ends `stuck_time` after 120 s (20 times a straight trip at cruising speed).
--
-- Where his report is silent, and what we chose (before running the experiment):
-- - terrain: his NewRandomSmoothTerrain is not in the report. Ours is a sum of smooth random
--   bumps, one per 10 x 10 units, on a 40 x 40 grid as his Initialize(40, 40), with the heights
--   normalised to [0, 1] (his NormalizeHeight, read as unit height). A new terrain per trip:
--   the sweep sets terrain.generate to the trip's seed.
-- - epsilon: his test compares the squared distance with an error constant of 10, so 3.16 units.
-- - dt = 0.01 s: his frame time is not given; at his top speed 10 an animal moves 0.1 (one body
--   length) a step.
-- K uphill is the swept parameter (herd.terrain_drag.uphill); K downhill stays 6 (30 / 5), as in
-- his loop, which raised TERRAIN_DRAG_FACTOR only.
local EPSILON, ENERGY_LIMIT, TIME_LIMIT = math.sqrt(10), 350, 120

-- fb.centre and fb.mean add up in C what a walk of fb.agents("herd") would, in the same order.
local function herd_centre()
  local cx, cy = fb.centre("herd")
  return cx, cy
end

local function mean_energy()
  return (fb.mean("energy", "herd"))
end

local function goal_distance()
  local cx, cy = herd_centre()
  local gx, gy = fb.goal("goal")
  return math.sqrt((cx - gx) ^ 2 + (cy - gy) ^ 2)
end

return {
  name = "Gompert's trip (Figure 6)",
  world = { width = 40, height = 40, dt = 0.01, bounds = "clamp",
    update = "euler" }, -- Gompert eq. 1: moved by the velocity it had
  terrain = { generate = 1, samples = 40, feature = 10, height = 1 },
  goals = { goal = { 35, 35 } },
  species = {
    {
      name = "herd",
      count = 50,
      spawn = { area = { 3.5, 3.5, 6.5, 6.5 }, speed = { 0, 10 } },
      body_length = 0.1,                         -- BOID_RADIUS 0.05
      max_speed = 10, cruise_speed = 7, max_accel = 20,
      vision = { radius = 10, fov = 270, separation = 0.4 },  -- 200 radii; 3/4 pi either side
      accumulator = "prioritised",
      colour = { 200, 140, 90 },
      rules = {
        { "separation_gompert", params = { comfort = 0.4, danger = 0.2 } },  -- 8 and 4 radii
        { "alignment_gompert" },
        { "cohesion_gompert" },
        { "seek_goal", params = { goal = "goal" } },
        { "terrain_drag", drag = true, params = { uphill = 30, downhill = 6 } },
      },
    },
  },
  on_step = function(step)
    if goal_distance() < EPSILON then
      fb.stop("arrived")
    elseif mean_energy() > ENERGY_LIMIT then
      fb.stop("stuck")
    elseif step * fb.world.dt >= TIME_LIMIT then
      fb.stop("stuck_time")
    end
  end,
  metrics = {
    { "goal_distance", goal_distance },
  },
}
