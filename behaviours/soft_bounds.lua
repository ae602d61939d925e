-- behaviours/soft_bounds.lua — turn back gently after leaving the play area (Parker, "Boids pseudocode", bound_position).
-- Per axis: +push past the low edge (x < margin), -push past the high edge (x > width - margin), else 0.
-- Like Parker's other rules push is a velocity change per step, so  a = (±push, ±push) / dt.
-- Parker's push of 10 was for a world where boids kept 100 units apart; the default here suits
-- worlds a few hundred units across. A wrapping world has no edges: the rule does nothing there.
return {
  params = { margin = 10, push = 1 },

  validate = function(p)
    if not (p.margin >= 0) then
      return "margin", "must be >= 0"
    end
    if not (p.push >= 0) then
      return "push", "must be >= 0"
    end
  end,

  steer = function(a, p, s)
    local width, height = s.width, s.height
    if s.wraps then
      return 0, 0
    end
    local k = p.push / s.dt
    local ax, ay = 0, 0
    if a.x < p.margin then
      ax = k
    elseif a.x > width - p.margin then
      ax = -k
    end
    if a.y < p.margin then
      ay = k
    elseif a.y > height - p.margin then
      ay = -k
    end
    return ax, ay
  end,
}
