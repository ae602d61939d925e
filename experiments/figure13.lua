-- experiments/figure13.lua — how often a herd splits round a hill, and how often it regroups beyond it (Gompert, Flocking Over 3D Terrain, Figure 13; AAAI 2005).
-- Each run is scripts/herd_split.lua with its own seed (the herd's start and headings): it ends
-- `together` (no split), `regrouped` (split, and 90% of the herd one group again 60 units beyond
-- the summit) or `apart`. The summary gives the fraction of each outcome per K uphill.
-- Run:   build/flockbox sweep experiments/figure13.lua
-- CI:    build/flockbox sweep experiments/figure13.lua --seeds 1-3 --out /tmp/figure13-ci
return {
  scenario = "scripts/herd_split.lua",
  steps = 3600,                          -- 180 s: past the scenario's 120 s limit plus the 30 s after
  grid = {
    { "herd.terrain_drag.uphill", { 0, 15, 30, 55 } },
  },
  sets = { "herd.terrain_drag.downhill=6" },
  seeds = { 1, 200 },
  out = "results/figure13",
  plot = { x = "herd.terrain_drag.uphill",
           y = { "outcome:together", "outcome:regrouped", "outcome:apart", "largest_group" } },
}
