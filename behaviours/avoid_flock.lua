-- behaviours/avoid_flock.lua — treat the members of another flock as obstacles and keep out of their comfort radius (Gamlen, Investigating Flocking Using Behavioural Modelling, section 3.8, two flocks; the push of 3.1).
-- Gamlen's two flocks "see each other as static objects rather than members of the same flock":
-- no centring or velocity matching across flocks, only collision avoidance. The nearest member of
-- species `other` within `range` pushes straight away with Gamlen's square-root profile (3.1,
-- eq. 2), scaled so that it is full at the comfort radius and inside it:
--   f = sqrt((range - d) / (range - comfort)), capped at 1;  a = -f * max_accel * d_hat.
-- Gamlen made the radius of moving objects at least twice their largest step: set range to the
-- comfort radius plus a stopping distance (about max_speed^2 / max_accel for two flocks meeting).
-- A straight push cannot turn an agent meeting the other flock head on; the two fronts would
-- just hold each other up. So when the member is ahead (d . h > 0) the push also has a sideways
-- part, `sidestep` times as long, away from the side it is on (to the right, r = (-hy, hx), when
-- dead ahead, as ships pass):  a = -f * max_accel * unit(d_hat + sidestep * m * r),
-- m = +1 if it is on the right, -1 on the left or dead ahead (steering.right_of).
local sqrt = math.sqrt
local normalise, right_of = steering.normalise, steering.right_of

return {
  params = {
    other = { "", help = "the other flock's species (\"\" = none)" },
    comfort = { 6, min = 0, help = "the radius kept clear round each of its members, world units" },
    range = { 16, help = "where the push starts, world units, beyond comfort" },
    sidestep = { 0.5, min = 0, help = "sideways part of the push when the member is ahead (0 = straight away only)" },
  },

  validate = function(p)
    if not (p.range > p.comfort) then
      return "range", "must be greater than comfort"
    end
  end,

  steer = function(a, p, s)
    if p.other == "" then
      return 0, 0
    end
    local dx, dy, d = a:nearest_agent(p.other, p.range)
    if dx == nil then
      return 0, 0
    end
    if d == 0 then -- exactly on top: no direction to push; let the next step separate them
      return 0, 0
    end
    local f = 1
    if d > p.comfort then
      f = sqrt((p.range - d) / (p.range - p.comfort))
    end
    local ux, uy = dx / d, dy / d
    local hx, hy = a.hx, a.hy
    local side, ahead = right_of(hx, hy, ux, uy)
    if p.sidestep > 0 and ahead > 0 then
      local m = side > 0 and p.sidestep or -p.sidestep
      ux, uy = normalise(ux + m * -hy, uy + m * hx)
    end
    local k = -f * s.max_accel
    return ux * k, uy * k
  end,
}
