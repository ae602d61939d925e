-- behaviours/terrain_drag.lua — resist climbing and descending so herds follow contour lines (Gompert, Flocking Over 3D Terrain, section 5.2.3, eq. 14).
-- g = terrain gradient (uphill), F = -K (v . g) g / |g| (eq. 14): only the part of the velocity
-- across the contours, u = v . g / |g|, is opposed, more strongly on steeper ground (drag
-- coefficient K |g|, eq. 12). K = uphill when u > 0, downhill when u < 0 (appendix A: 30 and 30 / 5);
-- zero on flat ground or along a contour.
-- It is a linear drag, -k u n with k = K |g| and n = g / |g|: list it with drag = true and the
-- engine integrates it exactly with the rest of the step (du/dt = a_n - k u over the step, see
-- src/engine/world/integrate.c), so it never reverses a climb however large K |g| dt, and a climb
-- pushed by the herd's steering settles at the same speed at any dt. Listed with force = true
-- instead, it is a plain explicit force, exact only while K |g| dt is small. A species with
-- drag = "gompert" takes it as his appendix code did: explicit, and summed over the frames between
-- behaviour updates (update_every); that form can hold a herd on a steep slope (docs/experiments.md).
-- There is no cap on K: at large K a herd creeps up slopes it climbed easily at small K, and on
-- steep ground makes no useful progress (Table 2, "overwhelmed by terrain"; section 9.3.5).
-- A negative K is allowed, as in section 9.3.5, with its warning: it accelerates animals away from
-- the contour lines, up and down the steepest slopes, until max_speed stops them; it is
-- unrealistic, and only for experiments.
local length, dot = steering.length, steering.dot

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
    local along = dot(a.vx, a.vy, gx, gy) -- v . g: > 0 climbing, < 0 descending
    local k
    if along > 0 then
      k = p.uphill
    elseif along < 0 then
      k = p.downhill
    else
      return 0, 0
    end
    local m = -k * along / slope -- eq. 14: F = -K (v . g) g / |g|
    return m * gx, m * gy
  end,
}
