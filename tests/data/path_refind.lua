-- tests/data/path_refind.lua — a herd with short sight round a still path object at (100, 100),
-- and one member placed far off at (20, 20) that sees nobody: refind_path (Gamlen 3.8) must bring
-- it to the object. test_paths switches the rule off for the control run.
return {
  world = { width = 200, height = 200, dt = 0.05, bounds = "clamp" },
  paths = { { name = "route", points = { { 100, 100 }, { 160, 100 } }, speed = 0 } },
  species = {
    {
      name = "herd", count = 8,
      spawn = { around = { 100, 100, 4 }, speed = 0 },
      agents = { { 20, 20, 0, 0 } },
      body_length = 1, max_speed = 6, max_accel = 12,
      vision = { radius = 6, fov = 360, separation = 2 },
      accumulator = "prioritised",
      rules = {
        { "refind_path" },
        { "separation_gompert", params = { comfort = 2, danger = 1 } },
        { "cohesion_gompert", params = { distance = 6 } },
      },
    },
  },
}
