-- tests/data/panel_test.lua — a small scenario for the parameter panel's tests: a flock with the probe rule, and a second species with a string parameter any text suits.
return {
  name = "Panel test",
  world = { width = 100, height = 100, dt = 0.05 },
  species = {
    {
      name = "boid", count = 40, max_speed = 8, max_accel = 20,
      spawn = { speed = { 2, 6 } },
      vision = { radius = 10, fov = 270 },
      rules = { { "separation" }, { "alignment" }, { "cohesion" }, { "panel_probe", name = "probe" } },
    },
    {
      name = "hawk", count = 3, max_speed = 12,
      vision = { radius = 20 },
      rules = { { "cohesion", weight = 0.5 }, { "seek_goal", weight = 0 } }, -- no goals: seeks nothing
    },
  },
}
