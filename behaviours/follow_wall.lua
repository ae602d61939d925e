-- behaviours/follow_wall.lua — run along the nearest obstacle's edge at an offset, wall on one side, rounding corners (Reynolds 1999, "Steering Behaviors For Autonomous Characters", wall following).
-- a:nearest_obstacle(range) gives the nearest surface point at distance d and the outward normal n
-- there; past a convex corner that point is the corner and n = (p - corner) / d turns round it, so
-- the tangent below turns too and the agent rounds the corner on a circle of radius offset.
-- Tangent, wall on the right (y down, the right of heading h is (-hy, hx)): t = (-ny, nx); on the
-- left: t = (ny, -nx). The wanted velocity runs along the wall and closes the gap to the offset o:
--   w = S t + (k / 4) (o - d) n,   a = k (w - v),
-- (S = speed, k = gain, 1/s): the gap then obeys g'' + k g' + (k² / 4) g = 0, critically damped, so
-- it settles in about 4 / k seconds without overshooting into the wall, at any dt. The gap |d - o|
-- is written to the field wall_gap for the scenario's metrics. No obstacle within range: no push.

return {
  params = {
    offset = { 3, min = 0, max = 1e6, help = "o, world units kept between the agent and the wall's surface" },
    side = { "right", help = "which side the wall is on: right or left (sets the direction of travel)" },
    speed = { 0, min = 0, help = "S, units/s along the wall (0 = the species' cruise_speed)" },
    gain = { 6, min = 0, max = 100, help = "k, 1/s: how fast the velocity and the gap settle (a curve of radius R holds the gap within 4 S² / (R k²))" },
    range = { 12, min = 0, circle = true, help = "how far a wall is looked for, world units" },
  },

  fields = { wall_gap = 0 }, -- |d - o| of the last step, world units (range - o with no wall in range)

  validate = function(p)
    if p.side ~= "right" and p.side ~= "left" then
      return "side", "must be \"right\" or \"left\""
    end
  end,

  steer = function(a, p, s)
    local dx, _, d, nx, ny = a:nearest_obstacle(p.range)
    if dx == nil then
      a:set("wall_gap", math.max(0, p.range - p.offset))
      return 0, 0
    end
    a:set("wall_gap", math.abs(d - p.offset))
    local tx, ty = -ny, nx
    if p.side == "left" then
      tx, ty = ny, -nx
    end
    local speed = p.speed > 0 and p.speed or s.cruise_speed
    local close = 0.25 * p.gain * (p.offset - d)
    local wx, wy = speed * tx + close * nx, speed * ty + close * ny
    return p.gain * (wx - a.vx), p.gain * (wy - a.vy)
  end,
}
