-- behaviours/alignment_bourg.lua — turn toward the average heading of the units in view (Bourg & Seemann, AI for Game Developers, ch. 4, "Alignment").
-- u = the neighbours' mean velocity made unit, h = own heading, angle = acos(h . u) in [0, pi].
-- The push is sideways, on the side where u lies:  a = m * force * angle / pi * r,
-- r = (-hy, hx) is the unit's right (starboard) side in this y-down world, m = +1 if u is to the
-- right, -1 if to the left. Neighbours that are (on average) standing still give no heading.
local sqrt, acos, pi = math.sqrt, math.acos, math.pi

-- Sideways push toward unit direction (ux, uy) for a unit heading (hx, hy).
local function turn_toward(hx, hy, ux, uy, force)
  local c = hx * ux + hy * uy
  if c >= 1 or c <= -1 then -- aligned already, or exactly opposite (no side to prefer)
    return 0, 0
  end
  local rx, ry = -hy, hx
  local m = (rx * ux + ry * uy) > 0 and 1 or -1
  local k = m * force * acos(c) / pi
  return k * rx, k * ry
end

return {
  params = { force = 0 }, -- the largest steering push, world units/s^2 (0 = the species' max_accel)

  validate = function(p)
    if not (p.force >= 0) then
      return "force", "must be >= 0 (0 = the species' max_accel)"
    end
  end,

  steer = function(a, p, s)
    if a.n == 0 then
      return 0, 0
    end
    local ux, uy = a.avx, a.avy
    local len = sqrt(ux * ux + uy * uy)
    if len == 0 then
      return 0, 0
    end
    local force = p.force > 0 and p.force or s.max_accel
    return turn_toward(a.hx, a.hy, ux / len, uy / len, force)
  end,
}
