-- behaviours/follow_path.lua — follow a path object with a small bias; a member who sees no flock-mate heads for it at full strength (Gamlen, Investigating Flocking Using Behavioural Modelling, sections 3.5 and 3.8).
-- Gamlen's path following works like his flock centring (eq. 6-8): the wanted velocity is the
-- offset to the path object, and a fraction `bias` of the difference is added each step. Per
-- second of offset:  v_w = (q - p) / lead, capped at max_speed (steering.truncate);
-- a = bias * (v_w - v) / dt.
-- Gamlen keeps the path bias small, below centring and velocity matching, so the flock still
-- flocks. Re-finding the herd (3.8): an agent that sees no flock-mate (a.n = 0) uses `refind`
-- as its bias instead, and heads for the path object. q = the goal named `goal`, which the
-- scenario moves along its path (fb.goal(name, x, y) in on_step).
local truncate = steering.truncate
local world = fb.world

return {
  params = {
    goal = { "path", help = "the goal that is the path object" },
    bias = { 0.02, min = 0, max = 1, help = "fraction of the velocity difference corrected per step" },
    refind = { 0.2, min = 0, max = 1, help = "the bias when no flock-mate is in view (0 = no re-finding)" },
    lead = { 1, help = "seconds, > 0: the offset divided by lead is the wanted velocity" },
  },

  validate = function(p)
    if not (p.lead > 0) then
      return "lead", "must be positive (seconds)"
    end
  end,

  steer = function(a, p, s)
    local qx, qy = fb.goal(p.goal)
    if qx == nil then
      return 0, 0
    end
    local bias = a.n == 0 and p.refind or p.bias
    if bias == 0 then
      return 0, 0
    end
    local wx, wy = truncate((qx - a.x) / p.lead, (qy - a.y) / p.lead, s.max_speed)
    local k = bias / world.dt
    return (wx - a.vx) * k, (wy - a.vy) * k
  end,
}
