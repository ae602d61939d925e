-- behaviours/separation_bourg.lua — turn away from each unit in view that is too close (Bourg & Seemann, AI for Game Developers, ch. 4, "Separation").
-- For every neighbour at distance d <= limit = factor * body_length:
--   a += m * force * limit / d * r,  r = (-hy, hx) the unit's right side (y-down world),
-- m = -1 when the neighbour is on the right, +1 when on the left: steer away from its side,
-- harder the closer it is (inversely proportional to d). A neighbour exactly ahead or behind
-- has no side; the unit then turns right, as ships do when meeting head on.
-- steering.right_of gives the side a neighbour is on; force 0 is the species' max_accel.
local right_of, force_or_max = steering.right_of, steering.force_or_max

return {
  params = {
    force = { 0, min = 0, help = "the largest steering push, world units/s^2 (0 = the species' max_accel)" },
    factor = { 2, help = "separation distance in body lengths, > 0 (Bourg's separation factor)" },
  },

  validate = function(p)
    if not (p.factor > 0) then
      return "factor", "must be positive (separation distance in body lengths)"
    end
  end,

  steer = function(a, p, s)
    local limit = p.factor * s.body_length
    local hx, hy = a.hx, a.hy
    local sum = 0 -- signed push along the right side, in units of force
    for k = 1, a.n do
      local dx, dy, d = a:neighbour(k)
      -- limit / d grows without bound: one within a millionth of the limit counts as exactly on top
      -- (no direction, as d = 0), so the push stays within the engine's 1e9 (every_rule_test.lua)
      if d > 1e-6 * limit and d <= limit then
        local m = right_of(hx, hy, dx, dy) > 0 and -1 or 1
        sum = sum + m * limit / d
      end
    end
    if sum == 0 then
      return 0, 0
    end
    local force = force_or_max(p.force, s)
    return sum * force * -hy, sum * force * hx
  end,
}
