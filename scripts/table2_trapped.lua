-- scripts/table2_trapped.lua — Gompert's Table 2, "trapped by obstacles": a wall of trees inside the obstacle vision range, and the herd makes no progress (Flocking Over 3D Terrain, section 9.3).
-- A herd heads for a goal beyond a line of trees across the whole field at x = 150. The trees are
-- 3 units apart, closer than a body (2 units) plus the pad avoid_silhouette keeps on each side, so
-- from anywhere within its obstacle range (20) the herd sees a solid wall: every way past the
-- nearest tree runs into the next. It presses against the wall and mills there.
-- The CSV's `progress` column is the herd centre's x; the wall is at 150 and the goal at 280.
-- Compare a wall with gaps a herd can use: --set herd.avoid.range=3 makes it blind to the wall
-- until it is on it, and collisions alone still stop it: the wall traps either way.
local trees = {}
for y = 2, 198, 3 do
  trees[#trees + 1] = { circle = { 150, y, 0.9 } }
end

local function centre_x()  -- fb.mean adds up in C what a walk of fb.agents() would
  return (fb.mean("x"))
end

return {
  name = "Table 2: trapped by obstacles",
  world = { width = 300, height = 200, dt = 0.05, bounds = "clamp",
    update = "euler" }, -- Gompert eq. 1: moved by the velocity it had
  obstacles = trees,
  goals = { goal = { 280, 100 } },
  species = {
    {
      name = "herd", count = 40,
      spawn = { area = { 10, 70, 50, 130 }, speed = { 1, 3 }, heading = 0 },
      body_length = 2, max_speed = 8, cruise_speed = 5.6, max_accel = 16,
      vision = { radius = 20, fov = 270, separation = 6 },
      accumulator = "prioritised",
      colour = { 200, 140, 90 },
      rules = {
        { "avoid_silhouette", name = "avoid", params = { range = 20 } },
        { "separation_gompert", params = { comfort = 6, danger = 3 } },
        { "alignment_gompert" },
        { "cohesion_gompert" },
        { "seek_goal", params = { goal = "goal" } },
      },
    },
  },
  metrics = { { "progress", centre_x } },
}
