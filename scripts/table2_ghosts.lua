-- scripts/table2_ghosts.lua — Gompert's Table 2, "ghost-like": animals with no vision of each other, whose bodies pass through each other when collisions are off (Flocking Over 3D Terrain, section 9.3).
-- The herd's visible range is 0 (R_f = 0), so no animal knows the others are there: each walks
-- straight for the goal and stops on it. With collide = false (the physics does not handle the
-- collisions) they end up stacked on one point, passing through each other like ghosts. With
-- bodies on, the same blind herd ends as a packed disc round the goal instead:
--   flockbox --headless --steps 1200 --set herd.collide=true scripts/table2_ghosts.lua
-- The CSV's mean_nn_distance column shows it: near 0 for ghosts, near a body length with bodies.
return {
  name = "Table 2: ghost-like",
  world = { width = 200, height = 200, dt = 0.05, bounds = "clamp",
    update = "euler" }, -- Gompert eq. 1: moved by the velocity it had
  goals = { goal = { 100, 100 } },
  species = {
    {
      name = "herd", count = 60,
      spawn = { area = { 20, 20, 180, 180 }, speed = 0 },
      body_length = 2, max_speed = 8, cruise_speed = 5.6, max_accel = 16,
      vision = { radius = 0 },
      collide = false,
      accumulator = "prioritised",
      colour = { 210, 210, 240 },
      rules = {
        { "seek_goal", params = { goal = "goal" } },
      },
    },
  },
}
