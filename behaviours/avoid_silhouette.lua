-- behaviours/avoid_silhouette.lua — steer past the nearest silhouette edge of the obstacle ahead (Gompert, Flocking Over 3D Terrain, section 6.2; appendix A avoidObstacles).
-- t = the point just past the nearer edge (obstacle grown by the body radius), v_new = |v| (t - p) / |t - p|:
-- keep the speed, turn toward t. fraction = gain * (v_new - v) / (max_speed / 2) * L / (L + d),
-- capped at 1 (steering.capped), L = body_length, d = distance left to the grown surface: nearer
-- obstacles steer harder (Gompert scales by radius / distance). a = fraction * max_accel.
-- Emergency (Gompert's "colliding" case): within a body radius of any surface, push straight out at max_accel.
-- The edge is padded by the body radius, not by Gompert's 1.3 x the tree's radius: obstacles here
-- may be polygons, which have no radius to scale, and the body radius is what keeps the body's own
-- edge off the surface.
local normalise, capped = steering.normalise, steering.capped

return {
  params = {
    range = { 20, circle = true, help = "how far ahead obstacles are noticed, world units, > 0 (Gompert's visible obstacle range)" },
    -- Gompert's 10000: full steering whenever a tree is in the way. Measured in tests/test_emergent.c
    -- on scripts/flock_trees.lua, it touches trees less than a gentler 100 (307 contacts against 479)
    comfort = { 1, min = 1, max = 10, help = "a tree farther than two padded radii is seen this many times as wide (Gompert's comfort space: 1.3; 1: at its size)" },
    gain = { 10000, min = 0, help = "how hard the velocity is steered toward v_new (Gompert: 10000)" },
  },

  validate = function(p)
    if not (p.range > 0) then
      return "range", "must be positive"
    end
  end,

  steer = function(a, p, s)
    local pad = s.body_length / 2
    local _, _, close, nx, ny = a:nearest_obstacle(pad)
    if close ~= nil then
      return nx * s.max_accel, ny * s.max_accel
    end
    local ox, oy, dist = a:silhouette_edge(p.range, pad, p.comfort)
    if ox == nil then
      return 0, 0
    end
    local ux, uy, len = normalise(ox, oy)
    if len == 0 then
      return 0, 0
    end
    local speed = a.speed
    local gap = dist - pad
    if gap < 0 then
      gap = 0
    end
    local L = s.body_length
    local k = p.gain / (s.max_speed / 2) * L / (L + gap)
    return capped((ux * speed - a.vx) * k, (uy * speed - a.vy) * k, s)
  end,
}
