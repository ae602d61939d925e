-- behaviours/seek_goal.lua — head for a named goal at cruising speed, not flat out (Gompert, Flocking Over 3D Terrain, section 4, eq. 5-6; appendix A gotoGoal).
-- Target velocity v_g = C_s (p_g - p) / |p_g - p| (eq. 5); as in appendix A it is (p_g - p) capped at
-- C_s, so the agent slows within one second of travel of the goal instead of overshooting.
-- F = K (v_g - v) (eq. 6), in fraction form: gain * (v_g - v) / (max_speed / 2), capped at 1;
-- a = fraction * max_accel. Both together are steering.arrive. C_s = cruise, or the species'
-- cruise_speed when cruise is 0.
local arrive = steering.arrive

return {
  params = {
    goal = { "goal", help = "the goal headed for" },
    gain = { 1, min = 0, help = "how hard the velocity is steered toward v_g (Gompert's K in eq. 6)" },
    cruise = { 0, min = 0, help = "cruising speed C_s, at most max_speed (0 = the species' cruise_speed)" },
  },

  validate = function(p, s)
    if not (p.cruise <= s.max_speed) then
      return "cruise", string.format("must be in [0, max_speed = %g] (Gompert Table 1; 0 = the species' cruise_speed)", s.max_speed)
    end
  end,

  steer = function(a, p, s)
    local gx, gy = fb.goal(p.goal)
    if gx == nil then -- no such goal (yet): nothing to seek
      return 0, 0
    end
    return arrive(a, s, gx - a.x, gy - a.y, p.cruise > 0 and p.cruise or s.cruise_speed, p.gain)
  end,
}
