-- behaviours/cohesion_bourg.lua — turn toward the average position of the units in view (Bourg & Seemann, AI for Game Developers, ch. 4, "Cohesion").
-- u = unit vector to the neighbours' centre, h = own heading, angle = acos(h . u) in [0, pi].
-- The push is sideways, on the side where u lies:  a = m * force * angle / pi * r,
-- r = (-hy, hx) is the unit's right (starboard) side in this y-down world, m = +1 if u is to the
-- right, -1 if to the left (steering.turn_toward). Dead ahead there is nothing to correct; dead
-- behind no side is better than the other, so, like Bourg, the rule waits for the first nudge.
local normalise, turn_toward, force_or_max = steering.normalise, steering.turn_toward, steering.force_or_max

return {
  params = {
    force = { 0, min = 0, help = "the largest steering push, world units/s^2 (0 = the species' max_accel)" },
  },

  steer = function(a, p, s)
    if a.n == 0 then
      return 0, 0
    end
    local ux, uy, dist = normalise(a.cx - a.x, a.cy - a.y)
    if dist == 0 then -- standing on the centre
      return 0, 0
    end
    return turn_toward(a, ux, uy, force_or_max(p.force, s))
  end,
}
