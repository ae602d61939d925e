-- behaviours/avoid_repulsive.lua — push away from the nearest obstacle like a force field (Gompert, Flocking Over 3D Terrain, section 6.1).
-- d = distance from the agent to the nearest obstacle surface within range, n = outward normal there.
-- fraction = (reach / d)^2, an inverse-square fall-off capped at 1 (full push within reach, and
-- inside an obstacle);  a = fraction * max_accel * n.
-- Gompert kept this method for comparison: flocks seem to bounce off an invisible shell around
-- each tree. avoid_silhouette steers around them more naturally.
return {
  params = {
    range = { 20, circle = true, help = "how far obstacles are noticed, world units, > 0 (Gompert's visible obstacle range)" },
    reach = { 3, help = "surface distance where the push reaches max_accel, world units, > 0" },
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
    local fraction = 1
    if d > p.reach then
      fraction = (p.reach / d) * (p.reach / d)
    end
    local k = fraction * s.max_accel
    return k * nx, k * ny
  end,
}
