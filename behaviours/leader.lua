-- behaviours/leader.lua — a unit with no unit of its type ahead of it in the narrow view becomes leader (Bourg & Seemann, AI for Game Developers, ch. 4, "Follow the Leader").
-- Bourg counts N_f, the units in the narrow view: ahead (w.y > 0 in the unit's own frame), within a
-- wedge |w.x| < front * w.y (front = _FRONT_VIEW_ANGLE_FACTOR; 1 gives +-45 degrees), and within
-- range body lengths (_NARROWVIEW_RADIUS_FACTOR). N_f = 0 makes the unit a leader.
-- Here w.y = d . h (ahead) and w.x = d . r (to the right, r = (-hy, hx) in this y-down world).
-- "Of its type": the units counted are the flock-mates the species sees, so give each unit type a
-- vision.sees of its own type only (the default). Bourg's leaders and interceptors each form
-- their own flocks that way.
-- The flag is written to the per-agent field `leader` every step, so leadership moves as soon as
-- the front changes; like every field it is read back one step later (a:get, the viewer paints
-- leaders red). This rule steers nowhere: pair it with chase or intercept (leaders_only = true).
local abs = math.abs

return {
  params = {
    front = 1,  -- half-width of the narrow view: |sideways| < front * ahead (Bourg's front view angle factor)
    range = 0,  -- narrow view radius in body lengths (Bourg's narrow view radius factor); 0 = the vision radius
  },

  fields = { leader = 0 },

  validate = function(p)
    if not (p.front > 0) then
      return "front", "must be positive (1 = a wedge of +-45 degrees)"
    end
    if not (p.range >= 0) then
      return "range", "must be >= 0 (body lengths; 0 = the species' vision radius)"
    end
  end,

  steer = function(a, p, s)
    local limit = p.range > 0 and p.range * s.body_length or s.radius
    local hx, hy = a.hx, a.hy
    for k = 1, a.n do
      local dx, dy, d = a:neighbour(k)
      if d <= limit then
        local ahead = dx * hx + dy * hy
        if ahead > 0 and abs(dy * hx - dx * hy) < p.front * ahead then
          a:set("leader", 0)
          return 0, 0
        end
      end
    end
    a:set("leader", 1)
    return 0, 0
  end,
}
