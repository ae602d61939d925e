-- behaviours/gate_pass.lua — tend to a gate; once there, tend to a place beyond it to make room for the rest (Parker, "Boids pseudocode", tend_to_place and the narrow gate).
-- Parker steers sheep to a narrow gate with tend_to_place, (place - p) / 100 per step, and once a
-- sheep reaches it changes its goal so it moves away and makes room; flanked by obstacles, the
-- flock mills round the gate and trickles through. As an acceleration (steering.tend):
--   a = (place - p) / (divisor T^2) at Parker's step T, its length capped at max when max > 0;
-- place = goal `gate` until the sheep comes within `reach` of it, then goal `beyond` for good
-- (the per-agent field `passed` remembers it).
local tend = steering.tend

return {
  params = {
    gate = { "gate", help = "the goal to pass through" },
    beyond = { "pasture", help = "the goal to head for once through the gate" },
    reach = { 3, help = "how near the gate counts as reaching it, world units, > 0" },
    divisor = { 100, min = 1e-6, help = "the step closes 1/divisor of the way (Parker: 100, 1% per step)" },
    step = { 0.05, min = 1e-6, help = "Parker's time step, seconds: his constants hold at it, at any dt" },
    max = { 0, min = 0, help = "cap on the pull, world units/s^2 (0 = no cap)" },
  },

  fields = { passed = 0 }, -- 1 once the agent has reached the gate

  validate = function(p)
    if not (p.reach > 0) then
      return "reach", "must be positive"
    end
  end,

  steer = function(a, p)
    if a.passed == 0 then
      local gx, gy = fb.goal(p.gate)
      if gx == nil then -- no gate (yet): nothing to tend to
        return 0, 0
      end
      local dx, dy = gx - a.x, gy - a.y
      if dx * dx + dy * dy > p.reach * p.reach then
        return tend(dx, dy, p.divisor, p.step, p.max)
      end
      a:set("passed", 1) -- there: from now on, beyond
    end
    local bx, by = fb.goal(p.beyond)
    if bx == nil then
      return 0, 0
    end
    return tend(bx - a.x, by - a.y, p.divisor, p.step, p.max)
  end,
}
