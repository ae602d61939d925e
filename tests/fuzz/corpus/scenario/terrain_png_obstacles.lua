return {
  world = { width = 256, height = 256, dt = 0.05, bounds = "clamp", collision_iterations = 3 },
  terrain = { png = "terrains/single_hill.png", height = 40 },
  obstacles = { { circle = { 128, 128, 10 } }, { polygon = { { 10, 10 }, { 40, 10 }, { 25, 40 } } } },
  species = {
    { name = "herd", count = 10, spawn = { area = { 20, 20, 236, 236 }, speed = { 0, 2 }, heading = 45 },
      agents = { { 11, 11, 1, 0 }, { 128, 128, 0, 0 } }, max_turn = 90, half_accel = true,
      slope_correction = true, update_every = 2, collide = true,
      vision = { radius = 30, fov = 270, separation = 8, sample = 3 },
      accumulator = "strict",
      rules = { { "avoid_repulsive", preempt = true }, { "terrain_drag", drag = true }, { "wind", force = true },
                { "cohesion_gompert" }, { "separation_gompert", params = { comfort = 8, danger = 4 } } } },
  },
}
