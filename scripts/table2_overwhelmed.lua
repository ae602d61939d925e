-- scripts/table2_overwhelmed.lua — Gompert's Table 2, "overwhelmed by terrain": a drag factor so large the herd cannot climb (Flocking Over 3D Terrain, sections 5.2.3 and 9.3.5).
-- A herd heads for a goal at the top of a long ramp (terrains/ramp.png: flat to x = 60, then a
-- slope of 0.4 up to x = 240, flat beyond; 256 x 16 samples, 16 bits), with the terrain drag at
-- K = 200 in Gompert's own form: his explicit drag, summed between behaviour updates, which come
-- 10 times a second (his section 8.2: drag = "gompert", update_every = 10 at dt = 0.01). Summed so,
-- the drag pulls each animal back toward where it last steered, and the herd stays at the foot:
-- 0.05 of 72 up after 600 s. With our exact drag (drag = "exact") the climb across the contours
-- settles at max_accel / (K |g|) = 0.2 units/s along the slope, and the herd creeps up: 38 of 72
-- in 600 s (docs/experiments.md). Compare:
--   flockbox --headless --steps 60000 scripts/table2_overwhelmed.lua                       # his: stays
--   flockbox --headless --steps 12000 --set herd.drag=exact --set herd.update_every=1 \
--     --set world.dt=0.05 scripts/table2_overwhelmed.lua                                    # ours: creeps
--   flockbox --headless --steps 12000 --set herd.terrain_drag.uphill=30 scripts/table2_overwhelmed.lua
-- The CSV's `climbed` column is the herd's mean height, world units (the top is at 72).
local function mean_height()
  local n, sum = 0, 0
  for a in fb.each() do
    n, sum = n + 1, sum + fb.terrain(a.x, a.y)
  end
  return sum / n
end

return {
  name = "Table 2: overwhelmed by terrain",
  world = { width = 300, height = 100, dt = 0.01, bounds = "clamp",
    update = "euler" }, -- Gompert eq. 1: moved by the velocity it had
  terrain = { png = "terrains/ramp.png", height = 72 },
  goals = { goal = { 280, 50 } },
  species = {
    {
      name = "herd", count = 30,
      spawn = { around = { 30, 50, 15 }, speed = { 0, 2 }, heading = 0 },
      body_length = 2, max_speed = 8, cruise_speed = 5.6, max_accel = 16,
      drag = "gompert", update_every = 10, -- his form and his behaviour-update delay (see above)
      vision = { radius = 20, fov = 270, separation = 6 },
      accumulator = "prioritised",
      colour = { 200, 140, 90 },
      rules = {
        { "separation_gompert", params = { comfort = 6, danger = 3 } },
        { "alignment_gompert" },
        { "cohesion_gompert" },
        { "seek_goal", params = { goal = "goal" } },
        { "terrain_drag", drag = true, params = { uphill = 200, downhill = 40 } },
      },
    },
  },
  metrics = { { "climbed", mean_height } },
}
