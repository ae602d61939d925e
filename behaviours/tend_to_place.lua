-- behaviours/tend_to_place.lua — drift toward a fixed place or a named goal (Parker, "Boids pseudocode", tend_to_place).
-- Parker adds dv = (place - p) / 100 each step: 1% of the way there. As an acceleration:
--   a = (place - p) / divisor / dt,  its length capped at max (world units/s^2) when max > 0,
-- as Parker suggests for distant places. place = the goal named by `goal`, or (x, y) when goal is "".
local sqrt = math.sqrt

return {
  params = { x = 0, y = 0, goal = "", divisor = 100, max = 0 },

  validate = function(p)
    if not (p.divisor > 0) then
      return "divisor", "must be positive (Parker uses 100)"
    end
    if not (p.max >= 0) then
      return "max", "must be >= 0 (0 = no cap)"
    end
  end,

  steer = function(a, p, s)
    local px, py = p.x, p.y
    if p.goal ~= "" then
      px, py = fb.goal(p.goal)
      if px == nil then -- no such goal (yet): nothing to tend to
        return 0, 0
      end
    end
    local k = 1 / (p.divisor * s.dt)
    local ax, ay = (px - a.x) * k, (py - a.y) * k
    if p.max > 0 then
      local len = sqrt(ax * ax + ay * ay)
      if len > p.max then
        ax, ay = ax * p.max / len, ay * p.max / len
      end
    end
    return ax, ay
  end,
}
