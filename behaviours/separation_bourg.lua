-- behaviours/separation_bourg.lua — turn away from each unit in view that is too close (Bourg & Seemann, AI for Game Developers, ch. 4, "Separation").
-- For every neighbour at distance d <= limit = factor * body_length:
--   a += m * force * limit / d * r,  r = (-hy, hx) the unit's right side (y-down world),
-- m = -1 when the neighbour is on the right, +1 when on the left: steer away from its side,
-- harder the closer it is (inversely proportional to d). A neighbour exactly ahead or behind
-- has no side; the unit then turns right, as ships do when meeting head on.
return {
  params = {
    force = 0,  -- the largest steering push, world units/s^2 (0 = the species' max_accel)
    factor = 2, -- separation distance in body lengths (Bourg's separation factor)
  },

  validate = function(p)
    if not (p.force >= 0) then
      return "force", "must be >= 0 (0 = the species' max_accel)"
    end
    if not (p.factor > 0) then
      return "factor", "must be positive (separation distance in body lengths)"
    end
  end,

  steer = function(a, p, s)
    local limit = p.factor * s.body_length
    local rx, ry = -a.hy, a.hx
    local sum = 0 -- signed sideways push, in units of force
    for k = 1, a.n do
      local dx, dy, d = a:neighbour(k)
      if d > 0 and d <= limit then
        local m = (rx * dx + ry * dy) > 0 and -1 or 1
        sum = sum + m * limit / d
      end
    end
    if sum == 0 then
      return 0, 0
    end
    local force = p.force > 0 and p.force or s.max_accel
    return sum * force * rx, sum * force * ry
  end,
}
