-- behaviours/terrain_drag.lua — resist climbing and descending so herds follow contour lines (Gompert, Flocking Over 3D Terrain, section 5.2.3, eq. 14).
-- g = terrain gradient (uphill), F = -K (v . g) g / |g|: only the velocity across the contours is
-- opposed, more strongly on steeper ground (drag coefficient K |g|, eq. 12). K = uphill when
-- v . g > 0, downhill when v . g < 0 (appendix A: 30 and 30 / 5); zero on flat ground or along a contour.
-- Over one step the drag changes v . g / |g| by the factor (1 - K |g| dt), so K |g| dt is capped at
-- 1: the drag can stop motion across the contours but, like any drag, never reverse it.
-- Meant to be listed with force = true: it acts after the accumulator, like a physical force.
-- Table 1 gives drag factor landmarks 0 .. ~55: beyond that herds cannot climb even shallow hills
-- (Table 2, "overwhelmed by terrain"); 100 is allowed for experiments, not more. A negative K would
-- push agents up and down the steepest slopes (section 9.3.5).
local length, dot = steering.length, steering.dot
local world = fb.world

return {
  params = {
    uphill = { 30, min = 0, max = 100, help = "drag factor K while climbing (Gompert: 30; useful up to about 55)" },
    downhill = { 6, min = 0, max = 100, help = "drag factor K while descending (Gompert: 30 / 5)" },
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
    local dt = world.dt
    if k * slope * dt > 1 then
      k = 1 / (slope * dt)
    end
    local m = -k * along / slope
    return m * gx, m * gy
  end,
}
