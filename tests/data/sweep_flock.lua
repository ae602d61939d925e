-- tests/data/sweep_flock.lua — a small, fast sweep for tests/cli_sweep.sh: 2 × 2 grid points × 10 seeds = 40 runs of 30 boids, 100 steps each.
return {
  scenario = "scripts/classic_flock.lua",
  steps = 100,
  every = 50,
  sets = { "boid.count=30" },
  grid = {
    { "boid.min_speed", { 2, 10 } },       -- the flock's mean speed follows it
    { "boid.alignment.weight", { 0, 1 } }, -- and its polarisation this one
  },
  seeds = { 1, 10 },
  out = "build/sweep_flock",               -- the test gives its own --out
  plot = { x = "boid.min_speed", y = { "boid.mean_speed", "boid.polarisation" } },
}
