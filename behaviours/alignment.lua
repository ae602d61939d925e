-- behaviours/alignment.lua — match the perceived velocity of the flock-mates in view (Parker, "Boids pseudocode", rule 3).
-- Parker adds dv = (pv - v) / 8 to the velocity each step, pv being the flock-mates' mean velocity.
-- As an acceleration:  a = (pv - v) / divisor / dt.
return {
  params = { divisor = 8 },

  validate = function(p)
    if not (p.divisor > 0) then
      return "divisor", "must be positive (Parker uses 8)"
    end
  end,

  steer = function(a, p, s)
    if a.n == 0 then
      return 0, 0
    end
    local k = 1 / (p.divisor * s.dt)
    return (a.avx - a.vx) * k, (a.avy - a.vy) * k
  end,
}
