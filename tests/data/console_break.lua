-- tests/data/console_break.lua — a flock whose second rule fails on purpose for agent 7 from step 3: --console --break-on-error stops there (tests/cli_console.sh).
return {
  world = { width = 100, height = 100, dt = 0.05 },
  behaviours = { "../behaviours" },
  species = {
    {
      name = "boid", count = 30,
      rules = { { "separation", params = { divisor = 20 } }, { "fails_for_console" } },
    },
  },
}
