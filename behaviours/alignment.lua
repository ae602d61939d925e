-- behaviours/alignment.lua — match the perceived velocity of the flock-mates in view (Parker, "Boids pseudocode", rule 3).
-- Parker adds (pv - v) / 8 to the velocity each step, pv being the others' mean velocity (the
-- engine's a.avx, a.avy). A velocity change per step is an acceleration over dt:
--   a = (pv - v) / (divisor * dt).
-- This is steering.tend written out: the classic flock is the benchmark, and the call would cost
-- more than the line.
local world = fb.world

return {
  params = {
    divisor = { 8, min = 1e-6, help = "the step closes 1/divisor of the velocity difference (Parker: 8)" },
  },

  steer = function(a, p)
    if a.n == 0 then -- no perceived velocity to match
      return 0, 0
    end
    local k = 1 / (p.divisor * world.dt)
    return (a.avx - a.vx) * k, (a.avy - a.vy) * k
  end,
}
