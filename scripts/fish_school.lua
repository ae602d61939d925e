-- scripts/fish_school.lua — a school of 104 fish along a path, each looking at a few others chosen at random (Gamlen, Investigating Flocking Using Behavioural Modelling, sections 4.1 and 4.2).
-- Gamlen rendered this school with his Monte Carlo method: "each creature only has to look at a
-- predefined number of other creatures that are chosen at random", collision avoidance still over
-- every one (vision.sample, sampling = "gamlen": 12 looks at the fish within the radius along each
-- axis, the ones in view perceived; every fish inside the comfort radius perceived). His other
-- settings: a collision radius much smaller than the moths', so the fish school close; a turning
-- limit of 5 degrees a frame (at his 25 frames a second, dt = 0.04: max_turn = 125 degrees/s); a
-- path drawn to look like a school's wandering; avoidance pre-emptive (strict, 3.6), which gives
-- the sideways flicker he saw as swimming. Watch the polarisation column, and compare the run with
-- --set fish.vision.sample=0 (every fish seeing every one in view).
-- Try: flockbox --headless --steps 3000 --csv fish.csv scripts/fish_school.lua

-- The path: a wandering loop through the tank, 10 points.
local route = {
  { 60, 70 }, { 130, 40 }, { 210, 55 }, { 270, 40 }, { 330, 90 },
  { 310, 170 }, { 240, 200 }, { 170, 170 }, { 100, 205 }, { 45, 150 },
}

return {
  name = "School of fish (Gamlen's Monte Carlo looks)",
  world = { width = 380, height = 250, dt = 0.04, bounds = "clamp",
    update = "euler" }, -- the seed gives no update; the engine's default
  paths = {
    { name = "route", closed = true, points = route, speed = 6 },
  },
  species = {
    {
      name = "fish", count = 104,
      spawn = { around = { 70, 80, 22 }, speed = { 3, 6 } },
      body_length = 1.5, max_speed = 9, min_speed = 3, cruise_speed = 6, max_accel = 30,
      max_turn = 125,
      vision = { radius = 12, fov = 300, separation = 2.5, sample = 12, sampling = "gamlen" },
      accumulator = "strict",
      colour = { 230, 170, 70 },
      rules = {
        { "separation_gompert", preempt = true, params = { comfort = 2.5, danger = 1.25 } },
        { "alignment_gompert", params = { gain = 0.5 } },
        { "cohesion_gompert", params = { distance = 30 } },
        { "refind_path", params = { path = "route" } },
        { "follow_path", params = { path = "route", bias = 0.03, step = 0.04 } },
      },
    },
  },
}
