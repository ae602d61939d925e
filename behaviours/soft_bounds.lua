-- behaviours/soft_bounds.lua — turn back gently after leaving the play area (Parker, "Boids pseudocode", bound_position).
-- Per axis: +push past the low edge (x < margin), -push past the high edge (x > width - margin),
-- else 0. Parker adds the push to the velocity each step, his velocity being a distance per step;
-- at his step T (param `step`) that is the acceleration  a = push / T^2  (steering.tend's units),
-- the same at any dt. Parker's push of 10 was for a world where boids kept 100 units apart; the
-- default 0.05 (20 world units/s^2 at T = 0.05 s) suits worlds a few hundred units across.
-- A wrapping world has no edges: the rule does nothing there.
local world = fb.world

return {
  params = {
    margin = { 10, min = 0, help = "how far inside the edge the push starts (world units)" },
    push = { 0.05, min = 0, help = "added per step per axis once past the margin, world units per step (Parker: 10)" },
    step = { 0.05, min = 1e-6, help = "Parker's time step, seconds: his constants hold at it, at any dt" },
  },

  steer = function(a, p)
    if world.wraps then
      return 0, 0
    end
    local m, x, y = p.margin, a.x, a.y
    local ux, uy = 0, 0 -- the push's sign along each axis: +1, -1 or 0
    if x < m then
      ux = 1
    elseif x > world.width - m then
      ux = -1
    end
    if y < m then
      uy = 1
    elseif y > world.height - m then
      uy = -1
    end
    if ux == 0 and uy == 0 then
      return 0, 0
    end
    local k = p.push / (p.step * p.step)
    return ux * k, uy * k
  end,
}
