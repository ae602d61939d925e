-- behaviours/cohesion_gompert.lua — accelerate toward the centre of the flock-mates in view (Gompert, Flocking Over 3D Terrain, section 3 and appendix A steerToCenter).
-- fraction = (centre - p) / distance, its length capped at 1 (steering.capped);  a = fraction * max_accel.
-- Gompert divides by 50 in a world where an animal's radius is 0.05 (BOID_RADIUS): the centre must
-- be 1 000 body radii off to ask for the full acceleration, and at his visible range (200 radii) it
-- asks for 0.2 of it. The default follows him in body radii, distance = 1000 * body_length / 2, so a
-- species of any size keeps his proportions; give `distance` in world units to choose otherwise.
local capped = steering.capped

return {
  params = {
    distance = { 0, min = 0, help = "how far off the centre must be to ask for all of max_accel, world units (0: 1000 body radii, Gompert's 50 at his radius 0.05)" },
  },

  steer = function(a, p, s)
    if a.n == 0 then
      return 0, 0
    end
    local distance = p.distance > 0 and p.distance or 500 * s.body_length
    return capped((a.cx - a.x) / distance, (a.cy - a.y) / distance, s)
  end,
}
