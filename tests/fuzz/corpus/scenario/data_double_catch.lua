return {
  name = "Two predators, one prey",
  world = { width = 100, height = 100, dt = 0.05, bounds = "clamp" },
  species = {
    {
      name = "prey", count = 0, agents = { { 50, 50, 0, 0 }, { 90, 90, 0, 0 } },
      body_length = 1, max_speed = 5, rules = {},
    },
    {
      name = "predator", count = 0, agents = { { 48, 50, 1, 0 }, { 52, 50, -1, 0 } },
      body_length = 2, max_speed = 8, vision = { radius = 10 },
      rules = { { "predator", params = { prey = "prey", catch = 3, rest = 100 } } },
    },
  },
}
