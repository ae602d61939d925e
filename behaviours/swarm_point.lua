-- behaviours/swarm_point.lua — swarm round a point taken as the perceived centre, kept off it by a repelling field (Gamlen, Investigating Flocking Using Behavioural Modelling, section 3.8, moths round a lamp).
-- Gamlen's moths "perceived the lamp to be the centre of their swarm": Parker's cohesion with the
-- point q in place of the flock-mates' centre,  a = (q - p) / (divisor T^2)  (steering.tend, Parker's step T),  a pull
-- growing with the distance like a spring, so a moth flying at speed v circles at about
-- r = v T sqrt(divisor).
-- Within `repel` of the point a spherical force field pushes straight out, Gamlen's square-root
-- profile (3.1, eq. 2) scaled to the species:  a += max_accel * sqrt((repel - d) / repel) * (p - q) / d.
-- Together with the species' max_turn (Gamlen 3.7) the field keeps moths from diving back at the
-- lamp: they orbit it. q = the goal named `goal` (the scenario may move it).
local sqrt = math.sqrt
local length, tend = steering.length, steering.tend

return {
  params = {
    goal = { "lamp", help = "the goal taken as the swarm's centre" },
    divisor = { 100, help = "the step closes 1/divisor of the way, > 0 (Parker: 100; larger: wider orbits)" },
    step = { 0.05, min = 1e-6, help = "Parker's time step, seconds: his constants hold at it, at any dt" },
    repel = { 6, min = 0, help = "radius of the force field round the point, world units" },
  },

  validate = function(p)
    if not (p.divisor > 0) then
      return "divisor", "must be positive"
    end
  end,

  steer = function(a, p, s)
    local qx, qy = fb.goal(p.goal)
    if qx == nil then
      return 0, 0
    end
    local dx, dy = qx - a.x, qy - a.y
    local ax, ay = tend(dx, dy, p.divisor, p.step)
    local d = length(dx, dy)
    if d < p.repel and d > 0 then
      local push = s.max_accel * sqrt((p.repel - d) / p.repel) / d
      ax, ay = ax - dx * push, ay - dy * push
    end
    return ax, ay
  end,
}
