-- experiments/figure6.lua — Gompert's Figure 6: the herd's energy per trip against the terrain drag K (Flocking Over 3D Terrain, section 5.2.3; AAAI 2005).
-- His protocol: herds of 50, a new smooth random terrain for every trip, K uphill varied with K
-- downhill fixed (his loop raised TERRAIN_DRAG_FACTOR only, from the initial 30 / 5 = 6 down),
-- about 300 trips per value, and a limit past which a herd counts as stuck. One trip is
-- scripts/gompert_trip.lua (his set-up in his units; what his report leaves open is stated there);
-- each seed is a trip: it places the herd and, through terrain.generate, makes the terrain.
-- Stuck trips (`stuck`: mean energy past 350, his limit; `stuck_time`: 120 s) end with the energy
-- spent when they were given up, which is what his code recorded, so they enter the mean charged
-- at that, and the fractions are counted in the summary.
-- Run:   build/flockbox sweep experiments/figure6.lua
-- CI:    build/flockbox sweep experiments/figure6.lua --seeds 1-2 --out /tmp/figure6-ci
return {
  scenario = "scripts/gompert_trip.lua",
  steps = 20000,                         -- 200 s: past the scenario's own 120 s limit
  grid = {
    { "herd.terrain_drag.uphill", { 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 } },
  },
  sets = { "herd.terrain_drag.downhill=6" },
  seeds = { 1, 300 },
  seed_sets = { "terrain.generate" },
  out = "results/figure6",
  plot = { x = "herd.terrain_drag.uphill",
           y = { "herd.mean_energy", "time", "outcome:stuck", "outcome:stuck_time" } },
}
