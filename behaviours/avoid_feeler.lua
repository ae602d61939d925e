-- behaviours/avoid_feeler.lua — a feeler along the heading; turn away from the obstacle it touches (Bourg & Seemann, AI for Game Developers, ch. 4, "Obstacle Avoidance").
-- Feeler length L = factor * body_length, the obstacles grown by the body radius (body_length / 2).
-- On a hit, with c = offset to the obstacle's centre and r = (-hy, hx) the right side (y-down world):
--   a = m * force * L / |c| * r,  m = -1 if the centre is to the right, +1 if to the left,
-- harder the nearer the obstacle. A centre exactly ahead (or behind) has no side; the unit turns
-- right. steering.right_of gives the side; force 0 is the species' max_accel.
local length, right_of, force_or_max = steering.length, steering.right_of, steering.force_or_max

return {
  params = {
    force = { 0, min = 0, help = "the largest steering push, world units/s^2 (0 = the species' max_accel)" },
    factor = { 5, help = "feeler length in body lengths, > 0 (Bourg's collision visibility factor)" },
  },

  validate = function(p)
    if not (p.factor > 0) then
      return "factor", "must be positive (feeler length in body lengths)"
    end
  end,

  steer = function(a, p, s)
    local feeler = p.factor * s.body_length
    local hit, _, _, _, _, cx, cy = a:cast_feeler(feeler, s.body_length / 2)
    if hit == nil then
      return 0, 0
    end
    local dist = length(cx, cy)
    if dist == 0 then -- standing on the centre: no side to turn from
      return 0, 0
    end
    local hx, hy = a.hx, a.hy
    local m = right_of(hx, hy, cx, cy) > 0 and -1 or 1
    local k = m * force_or_max(p.force, s) * feeler / dist
    return k * -hy, k * hx
  end,
}
