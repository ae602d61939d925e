return {
  name = "Viewer test",
  world = { width = 200, height = 150, dt = 0.05, bounds = "clamp" },
  terrain = { generate = 3, height = 20, feature = 40, samples = 128 },
  obstacles = {
    { circle = { 150, 40, 8 } },
    { polygon = { { 40, 110 }, { 60, 105 }, { 65, 125 }, { 45, 130 } } },
  },
  goals = { home = { 180, 130 } },
  species = {
    {
      name = "sheep", count = 12,
      spawn = { area = { 60, 40, 140, 110 }, speed = { 1, 4 } },
      body_length = 2, max_speed = 8, max_accel = 20,
      vision = { radius = 12, fov = 270, separation = 3 },
      colour = { 60, 120, 255 },
      rules = {
        { "separation" }, { "alignment" }, { "cohesion" }, { "soft_bounds" },
        { "view_leader", name = "leader" },
      },
    },
    {
      name = "goat", count = 12,
      spawn = { area = { 20, 20, 60, 60 }, speed = { 1, 3 } },
      body_length = 2.5, max_speed = 6, max_accel = 10,
      vision = { radius = 10 },
      colour = { 255, 140, 0 },
      rules = { { "cohesion", weight = 0.5 }, { "soft_bounds" } },
    },
    {
      name = "rover", count = 1, player = true,
      spawn = { area = { 100, 75, 100, 75 }, speed = { 0, 0 } },
      body_length = 3, max_speed = 10, max_accel = 20,
      vision = { radius = 5 },
      rules = { { "view_player" }, { "soft_bounds" } },
    },
  },
  on_key = function(name) fb.goal("key_" .. name, 10, 10) end,
}
