-- scripts/dragonflies_path.lua — dragonflies that swarm round some reeds, then fly off along a river
-- (Gamlen, Investigating Flocking Using Behavioural Modelling, sections 3.5 and 3.8).
-- The river is a path: a closed spline through the points below, with a path object moving along
-- it at the speed its table gives: still for the first 20 s, then speeding up to 9 units/s over
-- the next 30 s. Each dragonfly follows the object with a small path bias, below avoiding, spacing,
-- velocity matching and centring; one that sees no flock-mate heads straight for it. While the
-- object is still, the dragonflies swarm round it; as it accelerates they become a mobile swarm,
-- then a flock, and at full speed they string out behind it almost in formation. Watch the
-- polarisation column.
-- Try: flockbox --headless --steps 2400 --csv dragonflies.csv scripts/dragonflies_path.lua

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
      name = "dragonfly", count = 19,
      spawn = { around = { 60, 60, 25 }, speed = { 2, 6 } },
      body_length = 2, max_speed = 13, min_speed = 3, cruise_speed = 9, max_accel = 40,
      max_turn = 240,
      vision = { radius = 16, fov = 300, separation = 4 },
      -- Gamlen 3.6: when collision avoidance acts, none of the other behaviours runs (strict, with
      -- avoidance pre-emptive); else the rules add up. Prioritised instead (Gompert's budget):
      -- polarisation 0.17 round the still object and 0.99 behind it, against 0.25 and 0.93.
      accumulator = "strict",
      colour = { 80, 200, 220 },
      rules = {
        { "avoid_repulsive", preempt = true, params = { range = 10, reach = 3 } },
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
