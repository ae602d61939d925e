-- behaviours/flee.lua — move away from the nearest agent of a predator species (Parker, "Boids pseudocode", tend_to_place with a negative multiplier).
-- Parker flees a place with -(place - p) / 100 per step; here the place is the nearest agent of
-- species `from` within `radius`:  a = (p - q) / (divisor T^2) at Parker's step T,  its length capped at max when
-- max > 0 (steering.tend with the offset turned round). Like Parker's, the push grows with the
-- distance, so the radius bounds it: beyond it, nothing. For a predator's predicted position
-- instead of its present one, see evade.
local tend = steering.tend

return {
  params = {
    from = { "predator", help = "the species fled (the nearest of its agents)" },
    radius = { 0, min = 0, circle = true, help = "how near it must be, world units (0 = the species' vision radius)" },
    divisor = { 100, help = "the step moves 1/divisor of the offset away, > 0 (Parker: 100, 1% per step)" },
    step = { 0.05, min = 1e-6, help = "Parker's time step, seconds: his constants hold at it, at any dt" },
    max = { 0, min = 0, help = "cap on the push, world units/s^2 (0 = no cap)" },
  },

  validate = function(p)
    if not (p.divisor > 0) then
      return "divisor", "must be positive (Parker uses 100)"
    end
  end,

  steer = function(a, p, s)
    local dx, dy = a:nearest_agent(p.from, p.radius > 0 and p.radius or s.radius)
    if dx == nil then
      return 0, 0
    end
    return tend(-dx, -dy, p.divisor, p.step, p.max)
  end,
}
