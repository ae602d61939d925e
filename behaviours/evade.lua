-- behaviours/evade.lua — run from where the nearest predator will be after the closing time (Bourg & Seemann's intercept prediction, ch. 4, turned round; Gompert eq. 5-6 for the steering).
-- q = the predator's offset d plus its velocity times t_close = |d| / |v_pred - v| (capped at
-- horizon seconds): where it will be when it could reach the agent. The agent wants to run
-- straight away from q at full speed, v_e = -max_speed q / |q|, and steers toward that velocity:
--   fraction = gain * (v_e - v) / (max_speed / 2), capped at length 1;  a = fraction * max_accel.
-- An agent starts running when a predator comes within `radius` and keeps running until it is
-- beyond `calm` (a flight distance larger than the alarm distance; calm = 0 means radius), so it
-- gets well clear instead of hovering at the edge of the alarm. The per-agent field `fleeing`
-- remembers it. With q = 0 (the predator will be right here) it runs from d.
local sqrt = math.sqrt

return {
  params = {
    from = "predator", -- the species evaded
    radius = 0,        -- alarm distance: a predator this near starts the flight, world units (0 = vision radius)
    calm = 0,          -- flight distance: the flight stops once the predator is beyond it (0 = radius)
    horizon = 3,       -- the longest look-ahead, seconds
    gain = 1,
  },

  fields = { fleeing = 0 },

  validate = function(p)
    if not (p.radius >= 0) then
      return "radius", "must be >= 0 (0 = the species' vision radius)"
    end
    if not (p.calm == 0 or p.calm >= p.radius) then
      return "calm", "must be 0 or at least radius"
    end
    if not (p.horizon >= 0) then
      return "horizon", "must be >= 0 seconds"
    end
    if not (p.gain >= 0) then
      return "gain", "must be >= 0"
    end
  end,

  steer = function(a, p, s)
    local radius = p.radius > 0 and p.radius or s.radius
    local fleeing = a:get("fleeing") ~= 0
    local dx, dy, dist, pvx, pvy = a:nearest(p.from, fleeing and p.calm > radius and p.calm or radius)
    if fleeing ~= (dx ~= nil) then
      a:set("fleeing", dx ~= nil and 1 or 0)
    end
    if dx == nil then
      return 0, 0
    end
    local rvx, rvy = pvx - a.vx, pvy - a.vy
    local closing = sqrt(rvx * rvx + rvy * rvy)
    local t = p.horizon
    if closing * p.horizon > dist then
      t = dist / closing
    end
    local qx, qy = dx + pvx * t, dy + pvy * t
    local q = sqrt(qx * qx + qy * qy)
    if q == 0 then
      qx, qy, q = dx, dy, dist
      if q == 0 then
        return 0, 0
      end
    end
    local speed = s.max_speed / q
    local k = p.gain / (s.max_speed / 2)
    local fx, fy = (-qx * speed - a.vx) * k, (-qy * speed - a.vy) * k
    local f = sqrt(fx * fx + fy * fy)
    if f > 1 then
      fx, fy = fx / f, fy / f
    end
    return fx * s.max_accel, fy * s.max_accel
  end,
}
