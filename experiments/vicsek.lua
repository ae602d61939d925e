-- experiments/vicsek.lua — the order parameter v_a against the noise eta (Vicsek, Czirók, Ben-Jacob, Cohen & Shochet 1995, Figure 2a).
-- Each run is scripts/vicsek.lua (N = 400 at density 4) with its own seed; `order` is v_a averaged
-- over the second half of the run. Other N at the same density: add
--   --set particle.count=40 --set world.width=3.1623 --set world.height=3.1623 --out results/vicsek-40
--   --set particle.count=100 --set world.width=5 --set world.height=5 --out results/vicsek-100
-- Run:   build/flockbox sweep experiments/vicsek.lua
return {
  scenario = "scripts/vicsek.lua",
  steps = 3000,
  grid = {
    { "particle.vicsek.eta", { 0.1, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6.2832 } },
  },
  seeds = { 1, 5 },
  out = "results/vicsek",
  plot = { x = "particle.vicsek.eta", y = "order" },
}
