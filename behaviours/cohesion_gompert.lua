-- behaviours/cohesion_gompert.lua — accelerate toward the centre of the flock-mates in view (Gompert, Flocking Over 3D Terrain, section 3 and appendix A steerToCenter).
-- fraction = (centre - p) / distance, its length capped at 1 (steering.capped);  a = fraction * max_accel.
-- Gompert divides by 50: a flock-mate centre 50 units away asks for the full acceleration.
local capped = steering.capped

return {
  params = {
    distance = { 50, help = "how far off the centre must be to ask for all of max_accel, world units, > 0 (Gompert: 50)" },
  },

  validate = function(p)
    if not (p.distance > 0) then
      return "distance", "must be positive (Gompert uses 50)"
    end
  end,

  steer = function(a, p, s)
    if a.n == 0 then
      return 0, 0
    end
    local distance = p.distance
    return capped((a.cx - a.x) / distance, (a.cy - a.y) / distance, s)
  end,
}
