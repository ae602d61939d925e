
return {
  name = "Dragonflies: swarm, flock, formation",
  world = { width = 330, height = 210, dt = 0.05, bounds = "clamp",
    update = "euler" }, -- the seed gives no update; the engine's default
  paths = {
    {
      name = "river", closed = true, start = 0,
      points = { { 60, 60 }, { 150, 40 }, { 260, 60 }, { 300, 130 }, { 240, 180 }, { 140, 160 }, { 60, 150 }, { 30, 100 } },
      speed = { { 20, 0 }, { 50, 9 } }, -- {time s, speed units/s}: 0 until 20 s, then up to 9 by 50 s
    },
  },
  obstacles = {
    { circle = { 52, 50, 2.5 } }, { circle = { 66, 47, 2 } }, { circle = { 70, 66, 2.5 } }, -- reeds
    { circle = { 50, 70, 2 } },
    { polygon = { { 200, 40 }, { 225, 44 }, { 224, 50 }, { 199, 46 } } },                     -- a log
    { circle = { 312, 118, 6 } }, { circle = { 185, 180, 5 } },                                -- rocks
  },
  species = {
    {
      name = "dragonfly", count = 12,
      spawn = { around = { 60, 60, 25 }, speed = { 2, 6 } },
      body_length = 2, max_speed = 13, min_speed = 3, cruise_speed = 9, max_accel = 40,
      max_turn = 240,
      vision = { radius = 16, fov = 300, separation = 4 },
      accumulator = "prioritised",
      colour = { 80, 200, 220 },
      rules = {
        { "avoid_repulsive", params = { range = 10, reach = 3 } },
        { "refind_path", params = { path = "river" } },
        { "separation_gompert", params = { comfort = 5, danger = 2.5 } },
        { "alignment_gompert", params = { gain = 0.5 } },
        { "cohesion_gompert", params = { distance = 40 } },
        { "follow_path", params = { path = "river", bias = 0.04 } },
      },
    },
  },
  metrics = {
    { "path_speed", function() return select(5, fb.path("river")) end },
  },
}
