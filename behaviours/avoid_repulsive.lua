-- behaviours/avoid_repulsive.lua — push away from the nearest obstacle like a force field (Gompert, Flocking Over 3D Terrain, section 6.1).
-- d = distance from the agent to the nearest obstacle surface within range, n = outward normal there.
-- fraction = (reach / d)^2, an inverse-square fall-off capped at 1 (full push within reach, and
-- inside an obstacle);  a = fraction * max_accel * n.
-- Gompert kept this method for comparison: flocks seem to bounce off an invisible shell around
-- each tree. avoid_silhouette steers around them more naturally.
return {
  params = {
    range = 20, -- how far obstacles are noticed (world units; Gompert's visible obstacle range)
    reach = 3,  -- surface distance where the push reaches max_accel (world units)
  },

  validate = function(p)
    if not (p.range > 0) then
      return "range", "must be positive"
    end
    if not (p.reach > 0) then
      return "reach", "must be positive"
    end
  end,

  steer = function(a, p, s)
    local _, _, d, nx, ny = a:nearest_obstacle(p.range)
    if d == nil then
      return 0, 0
    end
    local f = 1
    if d > p.reach then
      f = (p.reach / d) * (p.reach / d)
    end
    return f * s.max_accel * nx, f * s.max_accel * ny
  end,
}
