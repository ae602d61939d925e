-- tests/data/fails_later.lua — a flock whose second rule breaks at 1 s (step 20): the run goes on
-- without it, and its summary and exit status must say so (tests/cli_run_status.sh).
return {
  world = { width = 100, height = 100, dt = 0.05 },
  behaviours = { "../behaviours" },
  species = {
    {
      name = "boid", count = 30,
      rules = { { "separation", params = { divisor = 20 } }, { "breaks_at" } },
    },
  },
}
