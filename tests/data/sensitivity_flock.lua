-- tests/data/sensitivity_flock.lua — Morris screening for tests/cli_sensitivity.sh: 3 trajectories x 3 parameters = 12 points of 20 boids, 60 steps.
return {
  scenario = "scripts/classic_flock.lua",
  steps = 60,
  sets = { "boid.count=20" },
  design = {
    method = "morris",
    parameters = {
      { "boid.min_speed", 2, 10 },                 -- the flock's mean speed follows it
      { "boid.alignment.weight", 0, 2 },           -- and its polarisation this one
      { "boid.vision.radius", 5, 40, log = true },
    },
    trajectories = 3,
    seed = 1,
  },
  seeds = { 1, 2 },
  out = "build/sensitivity_flock",                 -- the test gives its own --out
}
