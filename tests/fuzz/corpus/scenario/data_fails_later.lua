return {
  world = { width = 100, height = 100, dt = 0.05 },
  behaviours = { "../behaviours" },
  species = {
    {
      name = "boid", count = 12,
      rules = { { "separation", params = { divisor = 20 } }, { "breaks_at" } },
    },
  },
}
