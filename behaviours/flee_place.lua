-- behaviours/flee_place.lua — move away from a place or a named goal (Parker, "Boids pseudocode", tend_to_place with a negative multiplier).
-- Parker flees with -(place - p) / 100 per step: tend_to_place with the offset turned round. As an
-- acceleration (steering.tend):  a = (p - place) / (divisor T^2) at Parker's step T,  only while |place - p| < radius
-- when radius > 0, its length capped at max (world units/s^2) when max > 0. Note Parker's push
-- grows with the distance; the radius keeps far agents out of it. place = goal `goal`, or (x, y)
-- when goal is "".
local tend = steering.tend

return {
  params = {
    x = { 0, help = "the place, world units (when goal is \"\")" },
    y = { 0, help = "the place, world units (when goal is \"\")" },
    goal = { "", help = "a goal to flee instead of (x, y) (\"\" = the place)" },
    divisor = { 100, min = 1e-6, help = "the step moves 1/divisor of the offset away (Parker: 100, 1% per step)" },
    step = { 0.05, min = 1e-6, help = "Parker's time step, seconds: his constants hold at it, at any dt" },
    radius = { 0, min = 0, help = "how near the place must be, world units (0 = anywhere)" },
    max = { 0, min = 0, help = "cap on the push, world units/s^2 (0 = no cap)" },
  },

  steer = function(a, p)
    local px, py = p.x, p.y
    if p.goal ~= "" then
      px, py = fb.goal(p.goal)
      if px == nil then -- no such goal (yet): nothing to flee
        return 0, 0
      end
    end
    local dx, dy = a.x - px, a.y - py
    local radius = p.radius
    if radius > 0 and dx * dx + dy * dy >= radius * radius then
      return 0, 0
    end
    return tend(dx, dy, p.divisor, p.step, p.max)
  end,
}
