-- behaviours/separation.lua — move away from flock-mates that come too close (Parker, "Boids pseudocode", rule 2).
-- Parker's c = sum of (own position - their position) over flock-mates nearer than a small distance,
-- added whole to the velocity each step. The engine gathers c in a.sx, a.sy, using the species'
-- vision.separation radius as that distance. As an acceleration:  a = c / divisor / dt (divisor 1 = Parker).
return {
  params = { divisor = 1 },

  validate = function(p)
    if not (p.divisor > 0) then
      return "divisor", "must be positive (Parker adds c whole: 1)"
    end
  end,

  steer = function(a, p, s)
    if a.n == 0 then
      return 0, 0
    end
    local k = 1 / (p.divisor * s.dt)
    return a.sx * k, a.sy * k
  end,
}
