-- scripts/table2_trapped.lua — Gompert's Table 2, "trapped by obstacles": a wall of trees inside the obstacle vision range, and the herd makes no progress (Flocking Over 3D Terrain, section 9.3).
-- A herd heads for a goal beyond a line of trees across the whole field at x = 150, 3.9 units
-- apart: the gaps (2.1) let a body (2) through. The trap is perceptual, as Gompert has it: with
-- his comfort space (a tree farther than two padded radii seen 1.3 times as wide: comfort = 1.3)
-- and a long obstacle range (30), the herd sees the row as a solid wall from afar; steering past
-- one tree points it at the next, and it mills along the wall. Limit the range below two padded
-- radii (3.8) and only true silhouettes are seen: it goes through the gaps.
--   trapped:  4-5 of 40 beyond the wall after 60 s (seeds 1-3)
--   free:     --set herd.avoid.range=3.5: all 40 beyond by 45 s (38 by 30 s)
-- The CSV's `progress` column is the herd centre's x (wall at 150, goal at 280); `through` counts
-- the animals beyond the wall.
local trees = {}
for y = 2, 198, 3.9 do
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
        { "avoid_silhouette", name = "avoid", params = { range = 30, comfort = 1.3 } },
        { "separation_gompert", params = { comfort = 6, danger = 3 } },
        { "alignment_gompert" },
        { "cohesion_gompert" },
        { "seek_goal", params = { goal = "goal" } },
      },
    },
  },
  metrics = {
    { "progress", centre_x },
    { "through", function()
      local n = 0
      for a in fb.each("herd") do
        n = n + (a.x > 150 and 1 or 0)
      end
      return n
    end },
  },
}
