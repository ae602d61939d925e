-- behaviours/wander.lua — meander: steer toward a direction that drifts off the heading by a random walk (Reynolds' wander, as issue 5 asks for alongside Gamlen's and Parker's rules).
-- Each agent keeps a wander angle theta (field `wander`, radians) that takes a random step of up
-- to jitter * sqrt(dt * step) each step (a:random, so the same on any thread count): a random walk
-- whose spread over a second is the same at any dt. It is held within +-limit; the wanted
-- direction u is the heading turned by theta (steering.wander). The wanted velocity is cruise_speed
-- along u; the rule steers toward it as a fraction of max_accel (Gompert eq. 6,
-- steering.match_velocity), scaled by strength:
--   a = strength * max_accel * clamp((v_w - v) / (max_speed / 2), 1).
local rad = math.rad
local wander, match_velocity = steering.wander, steering.match_velocity
local world = fb.world

return {
  params = {
    jitter = { 120, min = 0, help = "how fast the wander angle drifts, degrees per second" },
    limit = { 45, min = 0, max = 180, help = "the largest wander angle off the heading, degrees" },
    step = { 0.05, min = 1e-6, help = "the step at which the angle moves by up to jitter * step, seconds" },
    strength = { 0.5, min = 0, help = "the push as a fraction of max_accel" },
  },

  fields = { wander = 0 }, -- the wander angle theta, radians

  steer = function(a, p, s)
    local theta, ux, uy = wander(a, a.wander, a:random(7), rad(p.jitter), rad(p.limit), world.dt, p.step)
    a:set("wander", theta)
    local cruise = s.cruise_speed
    local ax, ay = match_velocity(a, s, ux * cruise, uy * cruise, 1)
    local strength = p.strength
    return strength * ax, strength * ay
  end,
}
