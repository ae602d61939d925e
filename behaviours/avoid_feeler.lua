-- behaviours/avoid_feeler.lua — a feeler along the heading; turn away from the obstacle it touches (Bourg & Seemann, AI for Game Developers, ch. 4, "Obstacle Avoidance").
-- Feeler length L = factor * body_length, the obstacles grown by the body radius (body_length / 2).
-- On a hit, with c = offset to the obstacle's centre and r = (-hy, hx) the right side (y-down world):
--   a = m * force * L / |c| * r,  m = -1 if the centre is to the right, +1 if to the left,
-- harder the nearer the obstacle. A centre exactly ahead has no side; the unit turns right.
local sqrt = math.sqrt

return {
  params = {
    force = 0,  -- the largest steering push, world units/s^2 (0 = the species' max_accel)
    factor = 5, -- feeler length in body lengths (Bourg's collision visibility factor)
  },

  validate = function(p)
    if not (p.force >= 0) then
      return "force", "must be >= 0 (0 = the species' max_accel)"
    end
    if not (p.factor > 0) then
      return "factor", "must be positive (feeler length in body lengths)"
    end
  end,

  steer = function(a, p, s)
    local length = p.factor * s.body_length
    local hit, _, _, _, _, cx, cy = a:cast_feeler(length, s.body_length / 2)
    if hit == nil then
      return 0, 0
    end
    local dist = sqrt(cx * cx + cy * cy)
    if dist == 0 then -- standing on the centre: no side to turn from
      return 0, 0
    end
    local rx, ry = -a.hy, a.hx
    local m = (rx * cx + ry * cy) > 0 and -1 or 1
    local k = m * (p.force > 0 and p.force or s.max_accel) * length / dist
    return k * rx, k * ry
  end,
}
