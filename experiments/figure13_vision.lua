-- experiments/figure13_vision.lua — does a split herd regroup sooner when it sees further? Figure 13 with vision radius 10, 20 (shipped), 30 and 45 (issue 23).
-- scripts/herd_split.lua as shipped (goal 85 units beyond the summit, world 200) but for the
-- herd's vision radius, which sets how far apart two groups may be and still steer by each other
-- (alignment and cohesion; separation keeps its own 6). K uphill 15 and 30 (the demos' value).
-- Run:   build/flockbox sweep experiments/figure13_vision.lua --jobs 2
return {
  scenario = "scripts/herd_split.lua",
  steps = 3600,                          -- 180 s: past the 120 s limit plus the 30 s after
  grid = {
    { "herd.terrain_drag.uphill", { 15, 30 } },
    { "herd.vision.radius", { 10, 20, 30, 45 } },
  },
  sets = { "herd.terrain_drag.downhill=6" },
  seeds = { 1, 100 },
  out = "results/figure13_vision",
  plot = { x = "herd.vision.radius",
           y = { "outcome:regrouped", "largest_group", "largest_group_later" } },
}
