-- scripts/couzin.lua — Couzin et al. 2002 in the plane: 100 fish with zones of repulsion, orientation and attraction mill round an empty core.
-- Each step of 0.1 s every fish moves away from any neighbour within r_r = 1, else aligns with those
-- within the orientation zone (width Delta r_o) and moves toward those in the attraction zone (width
-- Delta r_a) beyond it, blind in the 90 degrees behind, turning at most 40 degrees a second toward where
-- it wants to go, with Gaussian noise of 0.05 rad, at 3 units/s (behaviours/couzin.lua). They start
-- in a disc of radius 5 with random headings. Delta r_o picks the phase: about 0-1 a swarm, 2 a mill
-- (torus), 3 and more a group moving in parallel; with Delta r_a = 14 (here).
-- Columns: P and M, the polarisation and the angular momentum about the group's centre (Couzin's
-- p_group and m_group; here wrap-safe, unlike the telemetry's rotation on a torus), their means
-- P_avg and M_avg over the last 1 000 steps (100 s), and extent, the mean distance from the centre
-- (a group that splits has a growing extent).
-- Try: flockbox --headless --steps 3000 --every 100 --csv couzin.csv scripts/couzin.lua
-- Try: flockbox --set fish.couzin.orientation=0.5 scripts/couzin.lua    (a swarm)
-- Try: flockbox --set fish.couzin.orientation=8 scripts/couzin.lua      (parallel)
-- Sweep: flockbox sweep experiments/couzin_phases.lua (P and M against Delta r_o; docs/experiments.md)
local window = 1000 -- steps P_avg and M_avg are averaged over
local P_hist, M_hist = {}, {}
for k = 1, window do -- filled now, so the hooks never grow a table
  P_hist[k], M_hist[k] = 0, 0
end
local P_sum, M_sum, filled = 0, 0, 0
local P_now, M_now, extent_now = 0, 0, 0

-- The nearest periodic image of an offset along an axis of length size (the world wraps).
local function image(d, size)
  return d - size * math.floor(d / size + 0.5)
end

-- P, M and the mean distance from the centre, the centre found from the first agent's nearest images
-- so that a group across the wrapped world's edge keeps one centre.
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

return {
  name = "Couzin et al. 2002: a mill",
  view = { 1000, 1000, 60 },
  world = { width = 2000, height = 2000, dt = 0.1, bounds = "wrap", -- wide enough to swim 300 s without meeting itself
    update = "semi_implicit" }, -- each fish moves by its new velocity
  species = {
    {
      name = "fish", count = 100,
      spawn = { around = { 1000, 1000, 5 }, speed = { 3, 3 } }, -- headings uniform
      body_length = 0.5, collide = false, -- points; the zone of repulsion keeps them apart
      max_speed = 3, min_speed = 3, cruise_speed = 3, max_accel = 1000, -- above 2 s / dt = 60: nothing cut
      vision = { radius = 31, fov = 270, separation = 0 }, -- alpha = 270; the radius reaches r_a up to 31
      draw_size = 7,
      colour = { 120, 200, 255 },
      rules = { { "couzin", params = { orientation = 2, attraction = 14 } } },
    },
  },
  on_step = function(step)
    P_now, M_now, extent_now = measure()
    local k = (step - 1) % window + 1 -- the slot of the step a window ago
    P_sum, M_sum = P_sum - P_hist[k] + P_now, M_sum - M_hist[k] + M_now
    P_hist[k], M_hist[k] = P_now, M_now
    filled = math.min(filled + 1, window)
  end,
  metrics = {
    { "P", function() return P_now end },
    { "M", function() return M_now end },
    { "P_avg", function() return filled > 0 and P_sum / filled or 0 end },
    { "M_avg", function() return filled > 0 and M_sum / filled or 0 end },
    { "extent", function() return extent_now end },
  },
}
