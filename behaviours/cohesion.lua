-- behaviours/cohesion.lua — steer toward the perceived centre of the flock-mates in view (Parker, "Boids pseudocode", rule 1).
-- Parker adds dv = (pc - p) / 100 to the velocity each step: 1% of the way to the centre pc.
-- A per-step velocity change over dt is an acceleration:  a = (pc - p) / divisor / dt.
-- To scatter the flock (Parker's negated rule 1), give this rule a negative weight in the scenario.
return {
  params = { divisor = 100 },

  validate = function(p)
    if not (p.divisor > 0) then
      return "divisor", "must be positive (Parker uses 100)"
    end
  end,

  steer = function(a, p, s)
    if a.n == 0 then
      return 0, 0
    end
    local k = 1 / (p.divisor * s.dt)
    return (a.cx - a.x) * k, (a.cy - a.y) * k
  end,
}
