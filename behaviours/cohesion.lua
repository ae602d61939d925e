-- behaviours/cohesion.lua — steer toward the perceived centre of the flock-mates in view (Parker, "Boids pseudocode", rule 1).
-- Parker adds (pc - p) / 100 to the velocity each step: 1% of the way to the centre pc of the
-- others (the engine's a.cx, a.cy: its own position when it sees nobody, so no pull). A velocity
-- change per step is an acceleration over dt:  a = (pc - p) / (divisor * dt).
-- This is steering.tend written out: the classic flock is the benchmark, and the call would cost
-- more than the line.
-- To scatter the flock (Parker's negated rule 1), give this rule a negative weight in the scenario,
-- or use the scatter rule in its place (it scatters when startled, then re-forms).
local world = fb.world

return {
  params = {
    divisor = { 100, min = 1e-6, help = "the step closes 1/divisor of the way to the centre (Parker: 100)" },
  },

  steer = function(a, p)
    local k = 1 / (p.divisor * world.dt)
    return (a.cx - a.x) * k, (a.cy - a.y) * k
  end,
}
