-- experiments/fit_vicsek.lua — recover Vicsek's noise eta from the order parameter: which eta gives the polarisation a run at eta = 2 gave?
-- The target, 0.8281, is the polarisation of scripts/vicsek.lua with N = 40 (L = 3.1623, density 4)
-- at eta = 2, averaged over steps 200-400 and over seeds 101-108 (a sweep of its own, other seeds
-- than the fit's). The fit runs seeds 1-4 for every candidate (common random numbers).
-- Run:   build/flockbox fit experiments/fit_vicsek.lua           (docs/fitting.md)
-- Other methods: edit `method`, or see tests/cli_fit.sh for scaled-down runs.
return {
  scenario = "scripts/vicsek.lua",
  steps = 400,
  every = 20,
  sets = { "particle.count=40", "world.width=3.1623", "world.height=3.1623" },
  seeds = { 1, 4 },
  out = "results/fit_vicsek",
  fit = {
    params = { { "particle.vicsek.eta", 0.5, 5 } },
    target = { "particle.polarisation", value = 0.8281, from = 200, to = 400 },
    method = "nelder_mead",
    budget = 160, -- runs: 40 candidates of 4 seeds
  },
}
