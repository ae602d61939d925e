-- behaviours/cohesion.lua — steer toward the perceived centre of the flock-mates in view (Parker, "Boids pseudocode", rule 1).
-- Parker adds (pc - p) / 100 to the velocity each step: 1% of the way to the centre pc of the
-- others (the engine's a.cx, a.cy: its own position when it sees nobody, so no pull). At Parker's
-- step T (param `step`) that is the acceleration  a = (pc - p) / (divisor T^2)  (steering.tend),
-- the same at any dt.
-- This is steering.tend written out: the classic flock is the benchmark, and the call would cost
-- more than the line.
-- To scatter the flock (Parker's negated rule 1), give this rule a negative weight in the scenario,
-- or use the scatter rule in its place (it scatters when startled, then re-forms).
return {
  params = {
    divisor = { 100, min = 1e-6, help = "each of Parker's steps closes 1/divisor of the way to the centre (Parker: 100)" },
    step = { 0.05, min = 1e-6, help = "Parker's time step, seconds: his constants hold at it, at any dt" },
  },

  steer = function(a, p)
    local step = p.step
    local k = 1 / (p.divisor * step * step)
    return (a.cx - a.x) * k, (a.cy - a.y) * k
  end,
}
