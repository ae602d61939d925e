-- experiments/couzin_phases.lua — polarisation and angular momentum against the orientation zone's width Delta r_o at Delta r_a = 14 (Couzin, Krause, James, Ruxton & Franks 2002, Figure 2, in the plane).
-- Each run is scripts/couzin.lua (100 fish from a disc of radius 5 with random headings) with its own
-- seed; P_avg and M_avg are P and M averaged over the last 1 000 steps (100 s) of 3 000. extent, the
-- mean distance from the group's centre at the end, shows whether the group held together.
-- Run:   build/flockbox sweep experiments/couzin_phases.lua --jobs 2
return {
  scenario = "scripts/couzin.lua",
  steps = 3000,
  sets = { "fish.couzin.attraction=14" },
  grid = {
    { "fish.couzin.orientation", { 0, 0.5, 1, 1.5, 2, 3, 4, 5, 6, 8, 10, 12, 15 } },
  },
  seeds = { 1, 4 },
  out = "results/couzin_phases",
  plot = { x = "fish.couzin.orientation", y = { "P_avg", "M_avg", "extent" } },
}
