-- experiments/figure6_drag_forms.lua — Figure 6 on steep terrain with Gompert's drag form and ours: stuck trips and energy against K (Flocking Over 3D Terrain, 5.2.3, 8.2, appendix Boid::Update).
-- The trip is scripts/gompert_trip.lua (his set-up; see experiments/figure6.lua), changed in three ways:
-- - terrain.height = 5: slopes five times the shipped ones (median 0.19, 90th percentile 0.48,
--   measured with tools/terrain_slopes.lua; docs/experiments.md), where his form gets herds stuck;
-- - update_every = 10: behaviour updated every 10th frame, his 8.2 feature, at the 10 updates per
--   second he names as the least for normal flocking (dt = 0.01 s);
-- - herd.drag, the grid's first parameter: "exact" (ours, the default) or "gompert" (his appendix:
--   explicit, the drags adding up in the acceleration between behaviour updates; integrate.c).
-- Run:   build/flockbox sweep experiments/figure6_drag_forms.lua --jobs 2
return {
  scenario = "scripts/gompert_trip.lua",
  steps = 20000,                         -- 200 s: past the scenario's own 120 s limit
  grid = {
    { "herd.drag", { "exact", "gompert" } },
    { "herd.terrain_drag.uphill", { 0, 20, 40, 55, 80 } },
  },
  sets = { "herd.terrain_drag.downhill=6", "terrain.height=5", "herd.update_every=10" },
  seeds = { 1, 100 },
  seed_sets = { "terrain.generate" },
  out = "results/figure6_drag_forms",
  plot = { x = "herd.terrain_drag.uphill",
           y = { "herd.mean_energy", "time", "outcome:stuck", "outcome:stuck_time" } },
}
