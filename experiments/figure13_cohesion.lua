-- experiments/figure13_cohesion.lua — does a split herd regroup when it pulls together harder? Figure 13 with cohesion_gompert's distance 1000 (shipped), 200, 50 and 20 (issue 23).
-- scripts/herd_split.lua as shipped but for cohesion_gompert's `distance`, how far off the centre
-- of the flock-mates in view must be to ask for all of max_accel. Shipped it is Gompert's 1000 body
-- radii, 1000 units for a body 2 long: a centre at the 20 units of vision asks for 2% of it. At 20
-- the same centre asks for all of it (within the prioritised budget, after separation and
-- alignment). K uphill 15 and 30 (the demos' value).
-- Run:   build/flockbox sweep experiments/figure13_cohesion.lua --jobs 2
return {
  scenario = "scripts/herd_split.lua",
  steps = 3600,                          -- 180 s: past the 120 s limit plus the 30 s after
  grid = {
    { "herd.terrain_drag.uphill", { 15, 30 } },
    { "herd.cohesion_gompert.distance", { 1000, 200, 50, 20 } },
  },
  sets = { "herd.terrain_drag.downhill=6" },
  seeds = { 1, 100 },
  out = "results/figure13_cohesion",
  plot = { x = "herd.cohesion_gompert.distance",
           y = { "outcome:regrouped", "largest_group", "largest_group_later" } },
}
