-- behaviours/avoid_unaligned.lua — dodge the agent that will come too close soonest, whatever way it moves (Reynolds, "Steering Behaviors For Autonomous Characters", 1999, "Unaligned collision avoidance").
-- For each flock-mate in view (offset d, velocity u; relative velocity rv = u - v), the time of
-- nearest approach  t = -(d . rv) / |rv|^2  within [0, horizon], and the offset then q = d + rv t
-- (steering.nearest_approach). Those that would come closer than clearance = 2 body radii +
-- margin threaten a collision (the view does not say the other's size: taken as this agent's);
-- the soonest of them (the nearest on a tie) is dodged. Reynolds: steer laterally away from its
-- predicted position, and slow down if it will be ahead (speed up if behind). With h the heading,
-- r = (-hy, hx) its right, side = q . r and ahead = q . h:
--   a = force * (1 - t / horizon) * (-sgn(side) r - brake sgn(ahead) h)
-- (a threat dead ahead, side = 0, is passed on the right, so two agents meeting head on both turn
-- to their right and pass). The nearer in time, the harder; force 0 is the species' max_accel.
local nearest_approach, right_of, force_or_max = steering.nearest_approach, steering.right_of, steering.force_or_max
local huge = math.huge

return {
  params = {
    horizon = { 3, help = "how far ahead in time approaches are predicted, seconds, > 0" },
    margin = { 0.5, min = 0, help = "clearance kept beyond the two bodies' radii, world units" },
    force = { 0, min = 0, help = "the largest push, world units/s^2 (0 = the species' max_accel)" },
    brake = { 0.5, min = 0, max = 1, help = "share of the push that slows down (speeds up) for a threat ahead (behind)" },
  },

  validate = function(p)
    if not (p.horizon > 0) then
      return "horizon", "must be positive (seconds)"
    end
  end,

  steer = function(a, p, s)
    local clearance = s.body_length + p.margin
    local vx, vy = a.vx, a.vy
    local soonest, closest, sqx, sqy = huge, huge, 0, 0
    for k = 1, a.n do
      local dx, dy, _, ux, uy = a:neighbour(k)
      local t, qx, qy, dist = nearest_approach(dx, dy, ux - vx, uy - vy, p.horizon)
      if dist < clearance and (t < soonest or (t == soonest and dist < closest)) then
        soonest, closest, sqx, sqy = t, dist, qx, qy
      end
    end
    if soonest == huge then
      return 0, 0
    end
    local hx, hy = a.hx, a.hy
    local side, ahead = right_of(hx, hy, sqx, sqy)
    local k = force_or_max(p.force, s) * (1 - soonest / p.horizon)
    local lateral = side > 0 and -k or k
    local along = ahead > 0 and -k * p.brake or (ahead < 0 and k * p.brake or 0)
    return lateral * -hy + along * hx, lateral * hx + along * hy
  end,
}
