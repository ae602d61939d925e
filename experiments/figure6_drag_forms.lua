-- experiments/figure6_drag_forms.lua — Figure 6 on steep terrain with Gompert's drag form and ours: stuck trips and energy against K (Flocking Over 3D Terrain, 5.2.3, 8.2, appendix Boid::Update).
-- The trip is scripts/gompert_trip.lua (his set-up; see experiments/figure6.lua), changed in three ways:
-- - terrain.height = 5: slopes five times the shipped ones (per terrain, averaged over seeds 1-100:
--   median 0.21, 90th percentile 0.65, maximum 1.31; tools/terrain_slopes.lua, docs/experiments.md),
--   where his form gets herds stuck;
-- - update_every = 10: behaviour updated every 10th frame, his 8.2 feature, at the 10 updates per
--   second he names as the least for normal flocking (dt = 0.01 s);
-- - herd.drag, the grid's first parameter: "exact" (ours, the default) or "gompert" (his appendix:
--   explicit, the drags adding up in the acceleration between behaviour updates; integrate.c).
-- K uphill at eight values, enough for a curve (his own loop went 0 to 75 in steps of 12.5).
-- Limits: his energy limit of 350 (scripts/gompert_trip.lua) and our 120 s; at this height a stuck
-- herd has spent 90-145 by 120 s, so it is the time limit that ends stuck trips (docs/experiments.md).
-- Run:   build/flockbox sweep experiments/figure6_drag_forms.lua --jobs 2
return {
  scenario = "scripts/gompert_trip.lua",
  steps = 20000,                         -- 200 s: past the scenario's own 120 s limit
  grid = {
    { "herd.drag", { "exact", "gompert" } },
    { "herd.terrain_drag.uphill", { 0, 10, 20, 30, 40, 55, 70, 80 } },
  },
  sets = { "herd.terrain_drag.downhill=6", "terrain.height=5", "herd.update_every=10" },
  seeds = { 1, 100 },
  seed_sets = { "terrain.generate" },
  out = "results/figure6_drag_forms",
  plot = { x = "herd.terrain_drag.uphill",
           y = { "herd.mean_energy", "time", "outcome:stuck", "outcome:stuck_time" } },
}
