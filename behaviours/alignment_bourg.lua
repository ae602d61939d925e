-- behaviours/alignment_bourg.lua — turn toward the average heading of the units in view (Bourg & Seemann, AI for Game Developers, ch. 4, "Alignment").
-- u = the neighbours' mean velocity made unit, h = own heading, angle = acos(h . u) in [0, pi].
-- The push is sideways, on the side where u lies:  a = m * force * angle / pi * r,
-- r = (-hy, hx) is the unit's right (starboard) side in this y-down world, m = +1 if u is to the
-- right, -1 if to the left (steering.turn_toward). Neighbours that are (on average) standing still
-- give no heading; a mean heading exactly opposite gives no side to prefer, so no push.
local normalise, turn_toward, force_or_max = steering.normalise, steering.turn_toward, steering.force_or_max

return {
  params = {
    force = { 0, min = 0, help = "the largest steering push, world units/s^2 (0 = the species' max_accel)" },
  },

  steer = function(a, p, s)
    if a.n == 0 then
      return 0, 0
    end
    local ux, uy, speed = normalise(a.avx, a.avy)
    if speed == 0 then
      return 0, 0
    end
    return turn_toward(a, ux, uy, force_or_max(p.force, s))
  end,
}
