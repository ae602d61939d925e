-- behaviours/wander.lua — meander: steer toward a direction that drifts off the heading by a random walk (Reynolds' wander, as issue 5 asks for alongside Gamlen's and Parker's rules).
-- Each agent keeps a wander angle theta (field `wander`, radians) that takes a random step of up
-- to jitter * dt each step (a:random, so the same on any thread count), held within +-limit.
-- The wanted velocity is cruise_speed along the heading turned by theta; the rule steers toward
-- it as a fraction of max_accel (Gompert eq. 6), scaled by strength:
--   a = strength * max_accel * clamp((v_w - v) / (max_speed / 2), 1).
local sqrt, cos, sin, rad = math.sqrt, math.cos, math.sin, math.rad

return {
  params = {
    jitter = 120,   -- degrees per second: how fast the wander angle drifts
    limit = 45,     -- degrees: the largest wander angle off the heading
    strength = 0.5, -- fraction of max_accel
  },

  fields = { wander = 0 },

  validate = function(p)
    if not (p.jitter >= 0) then
      return "jitter", "must be >= 0"
    end
    if not (p.limit >= 0 and p.limit <= 180) then
      return "limit", "must be in [0, 180] degrees"
    end
    if not (p.strength >= 0) then
      return "strength", "must be >= 0"
    end
  end,

  steer = function(a, p, s)
    local theta = a:get("wander") + (2 * a:random(7) - 1) * rad(p.jitter) * s.dt
    local limit = rad(p.limit)
    if theta > limit then
      theta = limit
    elseif theta < -limit then
      theta = -limit
    end
    a:set("wander", theta)
    local c, sn = cos(theta), sin(theta)
    local hx, hy = a.hx, a.hy
    local ux, uy = c * hx - sn * hy, sn * hx + c * hy
    local k = 1 / (s.max_speed / 2)
    local fx, fy = (ux * s.cruise_speed - a.vx) * k, (uy * s.cruise_speed - a.vy) * k
    local f = sqrt(fx * fx + fy * fy)
    if f > 1 then
      fx, fy = fx / f, fy / f
    end
    local m = p.strength * s.max_accel
    return fx * m, fy * m
  end,
}
