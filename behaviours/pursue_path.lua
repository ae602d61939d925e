-- behaviours/pursue_path.lua — hold a point beside a path's moving object by offset pursuit, e.g. a squad leader on its route (Reynolds, Steering Behaviors For Autonomous Characters, 1999, "Offset Pursuit").
-- The path object (fb.path: its place, unit tangent t and speed) is taken as a leader moving at
-- speed * t and heading along t; the agent aims at the point (ahead, right) of it in that frame,
-- predicted lookahead = T seconds on, and arrives there (steering.offset_pursuit):
--   w = speed t + (q0 / T),  q0 = offset to the object + from_local(t, ahead, right),  capped;
--   a = match_velocity(w)  (Gompert eq. 5-6).
-- Unlike follow_path (Gamlen's small bias toward the object, for a flock that should not fly like
-- a squadron), it tracks the object closely and smoothly, matching its velocity: what a formation's
-- leader needs, since every member's slot swings with the leader's heading.
local offset_pursuit = steering.offset_pursuit

return {
  params = {
    path = { "route", help = "the path whose object is pursued (the scenario's paths)" },
    ahead = { 0, help = "the point held: this far ahead of the object along its tangent, world units" },
    right = { 0, help = "and this far to the right of it, world units" },
    lookahead = { 1, min = 0.05, max = 30, help = "offset pursuit's look-ahead T, seconds" },
    speed = { 0, min = 0, help = "the fastest approach, units/s (0 = max_speed)" },
    gain = { 1, min = 0, help = "how hard the velocity is steered to the wanted one (match_velocity's gain)" },
  },

  steer = function(a, p, s)
    local qx, qy, tx, ty, speed = fb.path(p.path)
    if qx == nil then -- no such path: nothing to pursue
      return 0, 0
    end
    return offset_pursuit(a, s, qx - a.x, qy - a.y, speed * tx, speed * ty, tx, ty, p.ahead, p.right, p.lookahead,
      p.speed > 0 and p.speed or s.max_speed, p.gain)
  end,
}
