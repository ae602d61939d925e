-- behaviours/separation.lua — move away from flock-mates that come too close (Parker, "Boids pseudocode", rule 2).
-- Parker's c = the sum of (own position - their position) over the others nearer than a small
-- distance, added whole to the velocity each step. The engine gathers c in a.sx, a.sy, over the
-- species' vision.separation radius (an empty sum, 0, when it sees nobody). A position offset
-- added per step at Parker's step T (param `step`) is the acceleration  a = c / (divisor T^2)
-- (steering.tend; divisor 1 is Parker's), the same at any dt.
-- Written out rather than called: the classic flock is the benchmark, and the call would cost
-- more than the line.
return {
  params = {
    divisor = { 1, min = 1e-6, help = "each of Parker's steps adds c / divisor to the velocity (Parker: 1, all of it)" },
    step = { 0.05, min = 1e-6, help = "Parker's time step, seconds: his constants hold at it, at any dt" },
  },

  steer = function(a, p)
    local step = p.step
    local k = 1 / (p.divisor * step * step)
    return a.sx * k, a.sy * k
  end,
}
