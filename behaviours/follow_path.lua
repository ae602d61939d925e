-- behaviours/follow_path.lua — follow the object moving along a path with a small bias, as flock centring does (Gamlen, Investigating Flocking Using Behavioural Modelling, section 3.5).
-- Gamlen directs the flock with an invisible object moving along a spline (the scenario's paths;
-- fb.path gives where it is). His path following (the `patb` word of his code) adds, each frame,
-- a fraction `bias` of the difference between the offset to the object q and the velocity, both
-- per frame:  v_f <- v_f + bias ((q - p) - v_f).  With frames of `step` seconds, v_f = v step, so
-- the change of v per second is
--   a = bias (q - p) / step^2 - bias v / step = bias (w - v) / step,   w = (q - p) / step,
-- which depends on the reference step, never on the engine's dt. The wanted velocity w is capped
-- at max_speed, as his velocity limits cap what follows from it: an object far ahead then asks for
-- full speed toward it rather than the "excessively large path-following vectors" he warns of.
-- Keep the bias small and the rule last, below avoiding, velocity matching and centring, or the
-- flock flies like a squadron of aeroplanes (3.5); refind_path brings back members that lose it.
local truncate = steering.truncate

return {
  params = {
    path = { "route", help = "the path whose object is followed (the scenario's paths)" },
    bias = { 0.02, min = 0, max = 1, help = "fraction of the difference closed per reference step (Gamlen's path bias)" },
    step = { 0.05, min = 1e-4, help = "seconds: the step at which bias holds (Gamlen's frame), not the engine's dt" },
  },

  steer = function(a, p, s)
    local qx, qy = fb.path(p.path)
    if qx == nil then -- no such path: nothing to follow
      return 0, 0
    end
    local k = 1 / p.step
    local wx, wy = truncate((qx - a.x) * k, (qy - a.y) * k, s.max_speed)
    k = p.bias * k
    return (wx - a.vx) * k, (wy - a.vy) * k
  end,
}
