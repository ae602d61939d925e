-- examples/embed/rules/swirl.lua — circle round a point: a program's own rule, kept beside the program.
-- With n the unit vector from the agent to the centre (x, y), d its distance and t = (-n.y, n.x) the
-- tangent, the acceleration is  a = strength (t + (d - radius) / radius n):  along the circle, and
-- back toward it in proportion to how far off it the agent is.
return {
  params = {
    x = { 50, help = "the centre, world units" },
    y = { 50, help = "the centre, world units" },
    radius = { 25, min = 1e-6, help = "the circle's radius, world units" },
    strength = { 20, min = 0, help = "the acceleration along and toward the circle, world units/s^2" },
  },

  steer = function(a, p)
    local dx, dy = p.x - a.x, p.y - a.y
    local d = math.sqrt(dx * dx + dy * dy)
    if d < 1e-9 then
      return 0, 0
    end
    local nx, ny = dx / d, dy / d
    local pull = (d - p.radius) / p.radius
    return p.strength * (-ny + pull * nx), p.strength * (nx + pull * ny)
  end,
}
