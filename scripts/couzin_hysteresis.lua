-- scripts/couzin_hysteresis.lua — Couzin et al. 2002's collective memory in the plane: one group, its orientation zone widened step by step and then narrowed again.
-- The fish of scripts/couzin.lua (behaviours/couzin.lua, Delta r_a = 14) start as a swarm at
-- Delta r_o = 0. Every plateau of 1 000 steps (100 s) the width moves one unit, 0, 1, ..., 15 then 14,
-- ..., 0, and the same flock goes on: nothing is reset. P and M are averaged over the second half of
-- each plateau. Going up the group passes swarm, mill, parallel; coming down it stays parallel to a
-- much narrower zone before it mills again: the same Delta r_o, two behaviours, depending on where
-- the group has been (their Figure 4). The run ends itself after the 31 plateaus (outcome `done`).
-- Columns, written with --every 1000 at each plateau's end: dro, the width of the plateau that ended
-- (leg: 1 going up, -1 coming down), and P_plateau, M_plateau, extent_plateau its means.
-- Try: flockbox --headless --steps 31000 --every 1000 --csv hyst.csv scripts/couzin_hysteresis.lua
local plateau = 1000 -- steps per width
local top = 15       -- the widest Delta r_o; the schedule is 0, 1, ..., top, top - 1, ..., 0
local plateaus = 2 * top + 1

-- The width of plateau k (0-based) and the leg it is on.
local function width(k)
  if k <= top then
    return k, 1
  end
  return 2 * top - k, -1
end

-- The nearest periodic image of an offset along an axis of length size (the world wraps).
local function image(d, size)
  return d - size * math.floor(d / size + 0.5)
end

-- P, M and the mean distance from the centre, as in scripts/couzin.lua.
local function measure()
  local W, H = fb.world.width, fb.world.height
  local x0, y0, n, sx, sy, hx, hy = nil, nil, 0, 0, 0, 0, 0
  for a in fb.each("fish") do
    x0, y0 = x0 or a.x, y0 or a.y
    sx, sy = sx + image(a.x - x0, W), sy + image(a.y - y0, H)
    hx, hy, n = hx + a.hx, hy + a.hy, n + 1
  end
  if n == 0 then
    return 0, 0, 0
  end
  local cx, cy = x0 + sx / n, y0 + sy / n
  local m, spread = 0, 0
  for a in fb.each("fish") do
    local ux, uy = image(a.x - cx, W), image(a.y - cy, H)
    local r = math.sqrt(ux * ux + uy * uy)
    if r > 0 then
      m = m + (ux * a.hy - uy * a.hx) / r
    end
    spread = spread + r
  end
  return math.sqrt(hx * hx + hy * hy) / n, math.abs(m) / n, spread / n
end

local P_sum, M_sum, E_sum, samples = 0, 0, 0, 0 -- over the second half of the current plateau
local done_width, done_leg, done_P, done_M, done_E = 0, 1, 0, 0, 0 -- the last plateau that ended

return {
  name = "Couzin et al. 2002: hysteresis",
  view = { 1000, 1000, 80 },
  world = { width = 2000, height = 2000, dt = 0.1, bounds = "wrap", update = "semi_implicit" },
  species = {
    {
      name = "fish", count = 100,
      spawn = { around = { 1000, 1000, 5 }, speed = { 3, 3 } },
      body_length = 0.5, collide = false,
      max_speed = 3, min_speed = 3, cruise_speed = 3, max_accel = 1000,
      vision = { radius = 31, fov = 270, separation = 0 }, -- r_a = 1 + 15 + 14 at the widest
      draw_size = 7,
      colour = { 120, 200, 255 },
      rules = { { "couzin", params = { orientation = 0, attraction = 14 } } },
    },
  },
  on_step = function(step)
    local k, at = (step - 1) // plateau, (step - 1) % plateau + 1 -- plateau and its step, from 1
    if at > plateau // 2 then
      local P, M, E = measure()
      P_sum, M_sum, E_sum, samples = P_sum + P, M_sum + M, E_sum + E, samples + 1
    end
    if at == plateau then
      done_width, done_leg = width(k)
      done_P, done_M, done_E = P_sum / samples, M_sum / samples, E_sum / samples
      P_sum, M_sum, E_sum, samples = 0, 0, 0, 0
      if k + 1 == plateaus then
        fb.stop("done")
      else
        fb.set_param("fish", "couzin", "orientation", (width(k + 1)))
      end
    end
  end,
  metrics = {
    { "dro", function() return done_width end },
    { "leg", function() return done_leg end },
    { "P_plateau", function() return done_P end },
    { "M_plateau", function() return done_M end },
    { "extent_plateau", function() return done_E end },
  },
}
