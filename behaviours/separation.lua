-- behaviours/separation.lua — move away from flock-mates that come too close (Parker, "Boids pseudocode", rule 2).
-- Parker's c = the sum of (own position - their position) over the others nearer than a small
-- distance, added whole to the velocity each step. The engine gathers c in a.sx, a.sy, over the
-- species' vision.separation radius (an empty sum, 0, when it sees nobody). A velocity change per
-- step is an acceleration over dt:  a = c / (divisor * dt)  (divisor 1 is Parker's).
-- This is steering.tend written out: the classic flock is the benchmark, and the call would cost
-- more than the line.
local world = fb.world

return {
  params = {
    divisor = { 1, min = 1e-6, help = "the step adds c / divisor to the velocity (Parker: 1, all of it)" },
  },

  steer = function(a, p)
    local k = 1 / (p.divisor * world.dt)
    return a.sx * k, a.sy * k
  end,
}
