-- behaviours/cohesion_gompert.lua — accelerate toward the centre of the flock-mates in view (Gompert, Flocking Over 3D Terrain, section 3 and appendix A steerToCenter).
-- fraction = (centre - p) / distance, its length capped at 1;  a = fraction * max_accel.
-- Gompert divides by 50: a flock-mate centre 50 units away asks for the full acceleration.
local sqrt = math.sqrt

return {
  params = { distance = 50 },

  validate = function(p)
    if not (p.distance > 0) then
      return "distance", "must be positive (Gompert uses 50)"
    end
  end,

  steer = function(a, p, s)
    if a.n == 0 then
      return 0, 0
    end
    local fx, fy = (a.cx - a.x) / p.distance, (a.cy - a.y) / p.distance
    local len = sqrt(fx * fx + fy * fy)
    if len > 1 then
      fx, fy = fx / len, fy / len
    end
    return fx * s.max_accel, fy * s.max_accel
  end,
}
