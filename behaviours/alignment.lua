-- behaviours/alignment.lua — match the perceived velocity of the flock-mates in view (Parker, "Boids pseudocode", rule 3).
-- Parker adds (pv - v) / 8 to the velocity each step, pv being the others' mean velocity (the
-- engine's a.avx, a.avy). At Parker's step T (param `step`) that is the acceleration
--   a = (pv - v) / (divisor T)  (steering.tend_velocity),
-- the same at any dt: the velocity difference relaxes at the rate 1 / (divisor T) per second.
-- Written out rather than called: the classic flock is the benchmark, and the call would cost
-- more than the line.
return {
  params = {
    divisor = { 8, min = 1e-6, help = "each of Parker's steps closes 1/divisor of the velocity difference (Parker: 8)" },
    step = { 0.05, min = 1e-6, help = "Parker's time step, seconds: his constants hold at it, at any dt" },
  },

  steer = function(a, p)
    if a.n == 0 then -- no perceived velocity to match
      return 0, 0
    end
    local k = 1 / (p.divisor * p.step)
    return (a.avx - a.vx) * k, (a.avy - a.vy) * k
  end,
}
