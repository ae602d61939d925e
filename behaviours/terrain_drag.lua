-- behaviours/terrain_drag.lua — resist climbing and descending so herds follow contour lines (Gompert, Flocking Over 3D Terrain, section 5.2.3, eq. 14).
-- g = terrain gradient (uphill), F = -K (v . g) g / |g| (eq. 14): only the part of the velocity
-- across the contours, u = v . g / |g|, is opposed, more strongly on steeper ground (drag
-- coefficient K |g|, eq. 12). K = uphill when u > 0, downhill when u < 0 (appendix A: 30 and 30 / 5);
-- zero on flat ground or along a contour.
-- Alone, eq. 14 is du/dt = -K |g| u, whose exact solution over a step is u -> u exp(-K |g| dt). The
-- rule returns the acceleration that makes the engine's step do exactly that,
--   a = u (exp(-K |g| dt) - 1) / dt  along g / |g|,
-- which tends to eq. 14 as dt -> 0 and never overshoots: however large K |g| dt, the climb slows
-- to nothing without reversing (a plain -K |g| u would reverse it once K |g| dt > 1). There is no
-- cap on K: at large K a herd creeps up slopes it climbed easily at small K, and on steep ground
-- it does not climb at all in any useful time (Table 2, "overwhelmed by terrain"; section 9.3.5).
-- A negative K is allowed, as in section 9.3.5, with its warning: it accelerates animals away from
-- the contour lines, up and down the steepest slopes (growing as exp(|K| |g| dt) each step until
-- max_speed stops it); it is unrealistic, and only for experiments.
-- Meant to be listed with force = true: it acts after the accumulator, like a physical force.
local length, dot = steering.length, steering.dot
local exp = math.exp
local world = fb.world

return {
  params = {
    uphill = { 30, help = "drag factor K while climbing (Gompert: 30; Table 1 landmarks 0 .. ~55; < 0 is unrealistic)" },
    downhill = { 6, help = "drag factor K while descending (Gompert: 30 / 5; < 0 is unrealistic)" },
  },

  steer = function(a, p)
    local _, gx, gy = a:terrain()
    local slope = length(gx, gy)
    if slope == 0 then
      return 0, 0
    end
    local across = dot(a.vx, a.vy, gx, gy) / slope -- u: > 0 climbing, < 0 descending
    local k
    if across > 0 then
      k = p.uphill
    elseif across < 0 then
      k = p.downhill
    else
      return 0, 0
    end
    local dt = world.dt
    local m = across * (exp(-k * slope * dt) - 1) / (dt * slope)
    return m * gx, m * gy
  end,
}
