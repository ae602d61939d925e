-- experiments/figure13_goal.lua — does a split herd regroup because its goal is near? Figure 13 with the goal 85, 150, 300 and 1000 units beyond the summit (issue 23).
-- scripts/herd_split.lua as shipped but for the goal (its goals goal, goal_150, goal_300 and
-- goal_1000, all on the line y = 100 through the summit; the last outside the world, which
-- seek_goal allows: it steers by the goal's direction, slowing only within a second of it). The
-- world is 600 long instead of 200, on terrains/single_hill_long.png: the same hill, herd and
-- heights (its first 200 units are single_hill.png's), so a herd heading far walks on for the 30 s
-- after the outcome instead of pressing on the east wall. K uphill 15 and 30 (the demos' value).
-- Run:   build/flockbox sweep experiments/figure13_goal.lua --jobs 2
return {
  scenario = "scripts/herd_split.lua",
  steps = 3600,                          -- 180 s: past the 120 s limit plus the 30 s after
  grid = {
    { "herd.terrain_drag.uphill", { 15, 30 } },
    { "herd.seek_goal.goal", { "goal", "goal_150", "goal_300", "goal_1000" } },
  },
  sets = { "herd.terrain_drag.downhill=6", "world.width=600", "terrain.png=terrains/single_hill_long.png" },
  seeds = { 1, 100 },
  out = "results/figure13_goal",
  plot = { x = "herd.terrain_drag.uphill",
           y = { "outcome:regrouped", "largest_group", "largest_group_later" } },
}
