return {
  name = string.rep("n", 300),
  world = { width = 1e308, height = 1e-300, dt = 0/0, bounds = "torus", update = 7 },
  terrain = { generate = -1, samples = 1e9, feature = 0, height = math.huge },
  species = { { name = "", count = -5, max_speed = -1, min_speed = 20, cruise_speed = 1e308,
                vision = { radius = 0/0, fov = 720, sees = { "nobody" } }, accumulator = "nope",
                rules = { { "no_such_rule" }, { 12 }, { "separation", weight = math.huge, params = { divisor = -1 } } } } },
}
