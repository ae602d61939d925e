-- scripts/herd_hills.lua — a herd crossing hills to a goal (Gompert, "Flocking Over 3D Terrain").
-- Prioritised rules with a magnitude budget of 1 (Gompert's navigator), the terrain drag added as a
-- force with K = 30 uphill and 6 downhill, and the slope correction of eq. 10.
-- Try the energy-vs-K experiment: --set herd.terrain_drag.uphill=0 (straight over the hills) vs 30.
local arrived = nil

-- Distance from the herd's centre to the goal, and the herd's mean energy so far.
-- fb.centre and fb.mean add up in C what a walk of fb.agents() would, in the same order.
local function goal_distance()
  local cx, cy = fb.centre()
  local gx, gy = fb.goal("goal")
  return math.sqrt((cx - gx) ^ 2 + (cy - gy) ^ 2)
end

local function mean_energy()
  return (fb.mean("energy"))
end

return {
  name = "Herd over hills",
  world = { width = 300, height = 300, dt = 0.05, bounds = "clamp",
    update = "euler" }, -- Gompert eq. 1: moved by the velocity it had
  terrain = { png = "terrains/hills.png", height = 40 },
  goals = { goal = { 270, 270 } },
  species = {
    {
      name = "herd",
      count = 60,
      spawn = { around = { 40, 40, 20 }, speed = { 0, 2 }, heading = 45 },
      body_length = 2,
      max_speed = 8, cruise_speed = 5.6, max_accel = 16,
      vision = { radius = 30, fov = 270, separation = 8 },
      accumulator = "prioritised",
      colour = { 200, 140, 90 },
      rules = {
        { "separation_gompert", params = { comfort = 8, danger = 4 } },
        { "alignment_gompert" },
        { "cohesion_gompert" },
        { "seek_goal", params = { goal = "goal" } },
        { "terrain_drag", drag = true, params = { uphill = 30, downhill = 6 } },
      },
    },
  },
  -- Gompert's experiment (section 5.2.3, Figure 6) measures the energy the herd has spent when its
  -- centre reaches the goal; these hooks record it, and the time of arrival, as CSV columns.
  on_step = function(step)
    if arrived then return end
    if goal_distance() < 20 then
      arrived = { time = step * fb.world.dt, energy = mean_energy() }
    end
  end,
  metrics = {
    { "goal_distance", function() return goal_distance() end },
    { "arrival_time", function() return arrived and arrived.time or -1 end },
    { "energy_at_goal", function() return arrived and arrived.energy or -1 end },
  },
}
