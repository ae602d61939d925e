-- behaviours/tend_to_place.lua — drift toward a fixed place or a named goal (Parker, "Boids pseudocode", tend_to_place).
-- Parker adds dv = (place - p) / 100 each step: 1% of the way there. As an acceleration
-- (steering.tend):  a = (place - p) / (divisor T^2) at Parker's step T,  its length capped at max (world units/s^2)
-- when max > 0, as Parker suggests for distant places. place = the goal named by `goal`, or (x, y)
-- when goal is "".
local tend = steering.tend

return {
  params = {
    x = { 0, help = "the place, world units (when goal is \"\")" },
    y = { 0, help = "the place, world units (when goal is \"\")" },
    goal = { "", help = "a goal to tend to instead of (x, y) (\"\" = the place)" },
    divisor = { 100, min = 1e-6, help = "the step closes 1/divisor of the way (Parker: 100, 1% per step)" },
    step = { 0.05, min = 1e-6, help = "Parker's time step, seconds: his constants hold at it, at any dt" },
    max = { 0, min = 0, help = "cap on the pull, world units/s^2 (0 = no cap)" },
  },

  steer = function(a, p)
    local px, py = p.x, p.y
    if p.goal ~= "" then
      px, py = fb.goal(p.goal)
      if px == nil then -- no such goal (yet): nothing to tend to
        return 0, 0
      end
    end
    return tend(px - a.x, py - a.y, p.divisor, p.step, p.max)
  end,
}
