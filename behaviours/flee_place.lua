-- behaviours/flee_place.lua — move away from a place or a named goal (Parker, "Boids pseudocode", tend_to_place with a negative multiplier).
-- Parker flees with -(place - p) / 100 per step, so as an acceleration:
--   a = (p - place) / divisor / dt,  only while |place - p| < radius when radius > 0,
-- its length capped at max (world units/s^2) when max > 0. Note Parker's push grows with the
-- distance; the radius keeps far agents out of it. place = goal `goal`, or (x, y) when goal is "".
local sqrt = math.sqrt

return {
  params = { x = 0, y = 0, goal = "", divisor = 100, radius = 0, max = 0 },

  validate = function(p)
    if not (p.divisor > 0) then
      return "divisor", "must be positive (Parker uses 100)"
    end
    if not (p.radius >= 0) then
      return "radius", "must be >= 0 (0 = everywhere)"
    end
    if not (p.max >= 0) then
      return "max", "must be >= 0 (0 = no cap)"
    end
  end,

  steer = function(a, p, s)
    local px, py = p.x, p.y
    if p.goal ~= "" then
      px, py = fb.goal(p.goal)
      if px == nil then -- no such goal (yet): nothing to flee
        return 0, 0
      end
    end
    local dx, dy = a.x - px, a.y - py
    if p.radius > 0 and dx * dx + dy * dy >= p.radius * p.radius then
      return 0, 0
    end
    local k = 1 / (p.divisor * s.dt)
    local ax, ay = dx * k, dy * k
    if p.max > 0 then
      local len = sqrt(ax * ax + ay * ay)
      if len > p.max then
        ax, ay = ax * p.max / len, ay * p.max / len
      end
    end
    return ax, ay
  end,
}
