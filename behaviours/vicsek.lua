-- behaviours/vicsek.lua — each step the heading becomes the mean heading of the particles within r, itself included, plus uniform noise (Vicsek, Czirók, Ben-Jacob, Cohen & Shochet 1995).
-- Vicsek's model is a map, not a force: with theta_i(t + dt) = arg(sum over |x_j - x_i| <= r of
-- v_j(t)) + eta (u - 1/2), u uniform in [0, 1), every particle then moves at the constant speed v
-- along its new heading. One of his steps is one step of the scenario (his dt = 1 is the
-- scenario's dt), so the rule sets the velocity: it returns the acceleration that takes the velocity
-- to v (cos theta, sin theta) in this step, a = (v_new - v) / dt. How it fits the engine: the species
-- gives it alone (the weighted combiner passes one rule through whole), a max_accel above 2 v / dt
-- (nothing cut), min_speed = max_speed = v, and world.update = "semi_implicit", which moves each
-- particle by its new velocity, x(t + dt) = x(t) + v(t + dt) dt. The neighbours are the species'
-- vision (radius r, fov 360); the mean of equal-speed velocities has the mean heading's direction.
local atan, cos, sin = math.atan, math.cos, math.sin

return {
  params = {
    eta = { 0.5, min = 0, max = 10, help = "noise: a uniform angle in [-eta/2, eta/2] added to the mean heading, radians" },
    speed = { 0.03, min = 0, help = "the particles' constant speed v, units/s (Vicsek's 0.03 per step, at his dt = 1)" },
  },

  steer = function(a, p)
    local sx, sy = a.vx, a.vy -- itself, then its neighbours' velocities (a.n of them, mean a.avx, a.avy)
    if a.n > 0 then
      sx, sy = sx + a.n * a.avx, sy + a.n * a.avy
    end
    local theta = (sx == 0 and sy == 0) and atan(a.hy, a.hx) or atan(sy, sx)
    theta = theta + p.eta * (a:random(1) - 0.5)
    local dt, v = fb.world.dt, p.speed
    return (v * cos(theta) - a.vx) / dt, (v * sin(theta) - a.vy) / dt
  end,
}
