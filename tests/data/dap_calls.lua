-- tests/data/dap_calls.lua — a flock whose rule calls into the steering library and goes on after the call: breakpoints on either side of a call between files (tests/dap_client.py).
return {
  world = { width = 100, height = 100, dt = 0.05 },
  behaviours = { "../behaviours" },
  species = {
    {
      name = "boid", count = 20,
      rules = { { "separation", params = { divisor = 20 } }, { "calls_then_scales" } },
    },
  },
}
