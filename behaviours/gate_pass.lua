-- behaviours/gate_pass.lua — tend to a gate; once there, tend to a place beyond it to make room for the rest (Parker, "Boids pseudocode", tend_to_place and the narrow gate).
-- Parker steers sheep to a narrow gate with tend_to_place, (place - p) / 100 per step, and once a
-- sheep reaches it changes its goal so it moves away and makes room; flanked by obstacles, the
-- flock mills round the gate and trickles through. As an acceleration:
--   a = (place - p) / divisor / dt, its length capped at max when max > 0;
-- place = goal `gate` until the sheep comes within `reach` of it, then goal `beyond` for good
-- (the per-agent field `passed` remembers it).
local sqrt = math.sqrt

return {
  params = {
    gate = "gate",
    beyond = "pasture",
    reach = 3,      -- how near the gate counts as reaching it, world units
    divisor = 100,  -- Parker's 100
    max = 0,        -- cap on the push, world units/s^2 (0 = no cap)
  },

  fields = { passed = 0 },

  validate = function(p)
    if not (p.reach > 0) then
      return "reach", "must be positive"
    end
    if not (p.divisor > 0) then
      return "divisor", "must be positive (Parker uses 100)"
    end
    if not (p.max >= 0) then
      return "max", "must be >= 0 (0 = no cap)"
    end
  end,

  steer = function(a, p, s)
    local passed = a:get("passed") ~= 0
    local gx, gy = fb.goal(passed and p.beyond or p.gate)
    if gx == nil then
      return 0, 0
    end
    local dx, dy = gx - a.x, gy - a.y
    if not passed and dx * dx + dy * dy <= p.reach * p.reach then
      a:set("passed", 1)
      gx, gy = fb.goal(p.beyond)
      if gx == nil then
        return 0, 0
      end
      dx, dy = gx - a.x, gy - a.y
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
