-- behaviours/seek_goal.lua — head for a named goal at cruising speed, not flat out (Gompert, Flocking Over 3D Terrain, section 4, eq. 5-6; appendix A gotoGoal).
-- Target velocity v_g = C_s (p_g - p) / |p_g - p| (eq. 5); as in appendix A it is (p_g - p) capped at
-- C_s, so the agent slows within one second of travel of the goal instead of overshooting.
-- F = K (v_g - v) (eq. 6), in fraction form: gain * (v_g - v) / (max_speed / 2), capped at 1;
-- a = fraction * max_accel. C_s = cruise, or the species' cruise_speed when cruise is 0.
local sqrt = math.sqrt

return {
  params = { goal = "goal", gain = 1, cruise = 0 },

  validate = function(p, s)
    if not (p.gain >= 0) then
      return "gain", "must be >= 0"
    end
    if not (p.cruise >= 0 and p.cruise <= s.max_speed) then
      return "cruise", string.format("must be in [0, max_speed = %g] (Gompert Table 1; 0 = the species' cruise_speed)", s.max_speed)
    end
  end,

  steer = function(a, p, s)
    local gx, gy = fb.goal(p.goal)
    if gx == nil then -- no such goal (yet): nothing to seek
      return 0, 0
    end
    local cruise = p.cruise > 0 and p.cruise or s.cruise_speed
    local tx, ty = gx - a.x, gy - a.y
    local dist = sqrt(tx * tx + ty * ty)
    if dist > cruise then
      tx, ty = tx * cruise / dist, ty * cruise / dist
    end
    local k = p.gain / (s.max_speed / 2)
    local fx, fy = (tx - a.vx) * k, (ty - a.vy) * k
    local len = sqrt(fx * fx + fy * fy)
    if len > 1 then
      fx, fy = fx / len, fy / len
    end
    return fx * s.max_accel, fy * s.max_accel
  end,
}
