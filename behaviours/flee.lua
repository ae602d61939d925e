-- behaviours/flee.lua — move away from the nearest agent of a predator species (Parker, "Boids pseudocode", tend_to_place with a negative multiplier).
-- Parker flees a place with -(place - p) / 100 per step; here the place is the nearest agent of
-- species `from` within `radius`:  a = (p - q) / divisor / dt,  its length capped at max when
-- max > 0. Like Parker's, the push grows with the distance, so the radius bounds it: beyond it,
-- nothing. For a predator's predicted position instead of its present one, see evade.
local sqrt = math.sqrt

return {
  params = {
    from = "predator", -- the species fled
    radius = 0,        -- how near it must be, world units (0 = the species' vision radius)
    divisor = 100,     -- Parker's 100: 1% of the way per step
    max = 0,           -- cap on the push, world units/s^2 (0 = no cap)
  },

  validate = function(p)
    if not (p.radius >= 0) then
      return "radius", "must be >= 0 (0 = the species' vision radius)"
    end
    if not (p.divisor > 0) then
      return "divisor", "must be positive (Parker uses 100)"
    end
    if not (p.max >= 0) then
      return "max", "must be >= 0 (0 = no cap)"
    end
  end,

  steer = function(a, p, s)
    local dx, dy = a:nearest(p.from, p.radius > 0 and p.radius or s.radius)
    if dx == nil then
      return 0, 0
    end
    local k = -1 / (p.divisor * s.dt)
    local ax, ay = dx * k, dy * k
    if p.max > 0 then
      local len = sqrt(ax * ax + ay * ay)
      if len > p.max then
        ax, ay = ax * p.max / len, ay * p.max / len
      end
    end
    return ax, ay
  end,
}
