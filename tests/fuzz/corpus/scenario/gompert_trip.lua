local EPSILON, ENERGY_LIMIT, TIME_LIMIT = math.sqrt(10), 350, 120

local function herd_centre()
  local n, cx, cy = 0, 0, 0
  for a in fb.agents("herd") do
    n, cx, cy = n + 1, cx + a.x, cy + a.y
  end
  return cx / n, cy / n
end

local function mean_energy()
  local n, sum = 0, 0
  for a in fb.agents("herd") do
    n, sum = n + 1, sum + a.energy
  end
  return sum / n
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
      count = 12,
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
