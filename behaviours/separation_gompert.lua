-- behaviours/separation_gompert.lua — keep flock-mates out of the comfort zone (Gompert, Flocking Over 3D Terrain, section 9 and appendix A keepDistance).
-- Each flock-mate in view at distance d < C (comfort radius) pushes straight away from it with
--   w = (C^2 - d^2) / (C^2 - D^2), capped at 1:
-- gentle at the edge of the comfort zone, full once inside the danger radius D.
-- The sum of the pushes is a fraction of max_accel, its length capped at 1 (steering.capped):
--   a = capped(sum) * max_accel.
-- Table 1 landmarks: animal size <= D < C; the vision radius should reach at least C.
local capped = steering.capped

return {
  params = {
    comfort = { 8, circle = true, help = "comfort radius C: closer flock-mates push away, world units (Gompert: 8 animal radii)" },
    danger = { 4, circle = true, help = "danger radius D: closer ones push with all max_accel, world units, in (0, comfort) (Gompert: 4)" },
  },

  validate = function(p)
    if not (p.danger > 0) then
      return "danger", "must be positive"
    end
    if not (p.danger < p.comfort) then
      return "danger", string.format("must be smaller than comfort (%g >= %g; Gompert Table 1)", p.danger, p.comfort)
    end
  end,

  steer = function(a, p, s)
    local comfort = p.comfort
    local c2 = comfort * comfort
    local span = c2 - p.danger * p.danger
    local fx, fy = 0, 0
    for k = 1, a.n do
      local dx, dy, d = a:neighbour(k)
      if d > 0 and d < comfort then
        local w = (c2 - d * d) / span
        if w > 1 then
          w = 1
        end
        fx, fy = fx - dx / d * w, fy - dy / d * w
      end
    end
    return capped(fx, fy, s)
  end,
}
