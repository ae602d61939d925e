-- behaviours/evade.lua — run from where the nearest predator will be after the closing time (Bourg & Seemann's intercept prediction, ch. 4, turned round; Gompert eq. 5-6 for the steering).
-- q = the predator's offset d plus its velocity times t_close = |d| / |v_pred - v| (capped at
-- horizon seconds): where it will be when it could reach the agent. The agent wants to run
-- straight away from q at full speed, v_e = -max_speed q / |q|, and steers toward that velocity:
--   fraction = gain * (v_e - v) / (max_speed / 2), capped at length 1;  a = fraction * max_accel.
-- That is steering.evade (Reynolds' evade: flee the predicted position); with q = 0 (the predator
-- will be right here) it runs from d.
-- An agent starts running when a predator comes within `radius` and keeps running until it is
-- beyond `calm` (a flight distance larger than the alarm distance; calm = 0 means radius), so it
-- gets well clear instead of hovering at the edge of the alarm. The per-agent field `fleeing`
-- remembers it.
local evade = steering.evade

return {
  params = {
    from = { "predator", help = "the species evaded (the nearest of its agents)" },
    radius = { 0, min = 0, circle = true, help = "alarm distance: a predator this near starts the flight (0 = vision radius)" },
    calm = { 0, min = 0, help = "flight distance, 0 or >= radius: the flight ends beyond it (0 = radius)" },
    horizon = { 3, min = 0, help = "the longest look-ahead, seconds" },
    gain = { 1, min = 0, help = "how hard the velocity is steered toward the flight (Gompert eq. 6)" },
  },

  fields = { fleeing = 0 },

  validate = function(p)
    if not (p.calm == 0 or p.calm >= p.radius) then
      return "calm", "must be 0 or at least radius"
    end
  end,

  steer = function(a, p, s)
    local radius = p.radius > 0 and p.radius or s.radius
    local fleeing = a.fleeing ~= 0
    local dx, dy, dist, pvx, pvy = a:nearest_agent(p.from, fleeing and p.calm > radius and p.calm or radius)
    if fleeing ~= (dx ~= nil) then
      a:set("fleeing", dx ~= nil and 1 or 0)
    end
    if dx == nil then
      return 0, 0
    end
    return evade(a, s, dx, dy, dist, pvx, pvy, p.horizon, s.max_speed, p.gain)
  end,
}
