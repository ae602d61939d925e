-- behaviours/stay_inside.lua — keep inside a region without touching its edge (Reynolds 1999, "Steering Behaviors For Autonomous Characters", containment).
-- Reynolds' containment tests where the character will be and, when that point is outside (here:
-- nearer the edge than a margin), steers along the surface normal there. With the predicted position
-- p' = p + v T and fb.region's answer at p' (nearest edge point, distance d, inward unit normal n,
-- inside or not), the depth past the margin line is
--   e = m - d (p' inside),  e = m + d (p' outside),
-- and for e > 0 the push is a = n F min(1, 2 e / m), F = force or the species' max_accel: it grows
-- from nothing at the margin line to full halfway to the edge, so a crowd leaning outward (a field,
-- separation from those behind) is held about m / 2 inside rather than at the edge (measured in
-- tests/data/flow_contain.lua: ramping to full only at the edge let 4 of 60 out). List it first in
-- a prioritised species so it spends the budget first. It stops a body coming at speed v before the
-- edge when v T + m / 2 >= v² / (2 F).

local force_or_max = steering.force_or_max

return {
  params = {
    region = { "region", help = "the scenario's region kept to (regions.NAME)" },
    margin = { 4, min = 0.001, max = 1e6, help = "m, world units: how near the edge the predicted position may come" },
    predict = { 1, min = 0, max = 10, help = "look-ahead T, seconds: the region is asked about p + v T" },
    force = { 0, min = 0, help = "F, the largest push, world units/s² (0 = the species' max_accel)" },
  },

  steer = function(a, p, s)
    local _, _, d, nx, ny, inside = fb.region(p.region, a.x + a.vx * p.predict, a.y + a.vy * p.predict)
    local e = inside and p.margin - d or p.margin + d
    if e <= 0 then
      return 0, 0
    end
    local push = force_or_max(p.force, s) * math.min(1, 2 * e / p.margin)
    return nx * push, ny * push
  end,
}
