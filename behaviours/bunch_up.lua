-- behaviours/bunch_up.lua — keep flock-mates out of a comfort radius that shrinks as a predator nears, so the herd bunches up (Gamlen, Investigating Flocking Using Behavioural Modelling, section 3.8).
-- Gamlen links the collision radius to the distance D between the flock and a predator: beyond
-- `far` the predator is ignored (radius = comfort); nearer, the radius falls linearly to `tight`,
-- reached at `near`; nearer still it stops falling, so the animals never run into each other:
--   C = tight + (comfort - tight) * clamp((D - near) / (far - near), 0, 1).
-- D is measured from the centre of the flock-mates in view (the agent's own position when it sees
-- none), not from the agent: neighbours then shrink their radii alike, and the herd bunches where
-- it stands instead of drifting away from the side nearer the predator.
-- The push itself is Gompert's comfort/danger separation with danger radius = ratio * C:
-- each flock-mate at d < C pushes away with w = (C^2 - d^2) / (C^2 - (ratio C)^2), capped at 1;
-- the sum is capped at length 1 and scaled by max_accel (steering.capped).
local min, max = math.min, math.max
local length, capped = steering.length, steering.capped

return {
  params = {
    from = { "predator", help = "the species that frightens (the nearest of its agents)" },
    comfort = { 8, circle = true, help = "comfort radius with no predator near, world units" },
    tight = { 3, circle = true, help = "comfort radius once the predator is within near, world units, in (0, comfort]" },
    far = { 60, circle = true, help = "predator distance where bunching starts, world units" },
    near = { 15, min = 0, circle = true, help = "predator distance where it is tightest, world units, below far" },
    ratio = { 0.5, help = "danger radius as a fraction of the comfort radius, in (0, 1)" },
  },

  validate = function(p)
    if not (p.tight > 0 and p.tight <= p.comfort) then
      return "tight", "must be in (0, comfort]"
    end
    if not (p.near < p.far) then
      return "near", "must be below far"
    end
    if not (p.ratio > 0 and p.ratio < 1) then
      return "ratio", "must be in (0, 1) (Gompert: danger inside comfort)"
    end
  end,

  steer = function(a, p, s)
    local c = p.comfort
    -- the predator is looked for a vision radius beyond `far`, so one that is within `far` of the
    -- centre but farther from the agent is still found
    local ox, oy = a:nearest_agent(p.from, p.far + s.radius)
    if ox ~= nil then
      local D = length(ox - (a.cx - a.x), oy - (a.cy - a.y))
      c = p.tight + (p.comfort - p.tight) * min(max((D - p.near) / (p.far - p.near), 0), 1)
    end
    local c2 = c * c
    local span = c2 * (1 - p.ratio * p.ratio)
    local fx, fy = 0, 0
    for k = 1, a.n do
      local dx, dy, d = a:neighbour(k)
      if d > 0 and d < c then
        local w = min((c2 - d * d) / span, 1)
        fx, fy = fx - dx / d * w, fy - dy / d * w
      end
    end
    return capped(fx, fy, s)
  end,
}
