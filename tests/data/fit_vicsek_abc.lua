-- tests/data/fit_vicsek_abc.lua — experiments/fit_vicsek.lua scaled down for CI: ABC-SMC with 10 particles and one seed.
return {
  scenario = "scripts/vicsek.lua",
  steps = 400,
  every = 20,
  sets = { "particle.count=40", "world.width=3.1623", "world.height=3.1623" },
  seeds = { 1, 1 },
  fit = {
    params = { { "particle.vicsek.eta", 0.5, 5 } },
    target = { "particle.polarisation", value = 0.8281, from = 200, to = 400 },
    method = "abc_smc",
    particles = 10,
    budget = 150,
  },
}
