-- behaviours/refind_path.lua — a member that has lost the flock heads straight for the path object at full acceleration (Gamlen, Investigating Flocking Using Behavioural Modelling, section 3.8).
-- Gamlen 3.8: herd members see only 2 to 4 body lengths, so one that strays "may not be able to
-- see the herd and will not know which direction to move in"; his answer (the `pat` word of his
-- code) sends a member that sees no other straight toward the path object, which the herd follows.
-- Lost: fewer than `fewer_than` flock-mates in view (a.n; the default 1 is his "no other creature").
-- He sets the velocity outright; with an acceleration limit the nearest is all of it toward the
-- velocity wanted: w = max_speed (q - p) / |q - p|,  a = max_accel (w - v) / |w - v|.
-- Not lost: 0, 0, and the flock's own rules steer. Put it before follow_path in a prioritised list.
local normalise = steering.normalise

return {
  params = {
    path = { "route", help = "the path whose object a lost member heads for (the scenario's paths)" },
    fewer_than = { 1, min = 1, help = "lost when it sees fewer flock-mates than this (1: none at all)" },
  },

  steer = function(a, p, s)
    if a.n >= p.fewer_than then
      return 0, 0
    end
    local qx, qy = fb.path(p.path)
    if qx == nil then
      return 0, 0
    end
    local ux, uy, d = normalise(qx - a.x, qy - a.y)
    if d == 0 then
      return 0, 0
    end
    local dx, dy, dv = normalise(ux * s.max_speed - a.vx, uy * s.max_speed - a.vy)
    if dv == 0 then -- already flying straight at it at full speed
      return 0, 0
    end
    return dx * s.max_accel, dy * s.max_accel
  end,
}
