-- behaviours/hide.lua — hide from a threat behind the nearest obstacle, or flee it when there is none (Reynolds, "Steering Behaviors For Autonomous Characters", 1999, "Hide").
-- Reynolds' hide seeks "a hiding spot on the opposite side of an obstacle" from the threat. For
-- each obstacle within `range` of the agent the spot lies on the line from the threat T through
-- the obstacle's centre c, just past its far side:
--   u = (c - T) / |c - T|,  spot = c + (distance from c to the surface along u + gap) u,
-- and the spot nearest the agent is taken (a:hiding_spot, which handles circles and convex
-- polygons). The agent arrives there (steering.arrive at cruising speed, slowing over the last
-- second) and stays while the threat moves, the spot moving with it. With no obstacle in range it
-- flees the threat (Reynolds' flee at max speed); with no threat in sight it does nothing.
local arrive, flee = steering.arrive, steering.flee

return {
  params = {
    threat = { "threat", help = "the species hidden from (its nearest agent)" },
    sight = { 60, min = 0, circle = true, help = "how far the threat is seen, world units" },
    range = { 40, min = 0, circle = true, help = "how far off an obstacle may be to hide behind, world units" },
    gap = { 1, min = 0, help = "how far past the obstacle's far side the spot lies, world units (beyond the body radius)" },
    gain = { 1, min = 0, help = "how hard the velocity is steered toward the spot (Gompert's K in eq. 6)" },
  },

  steer = function(a, p, s)
    local tx, ty = a:nearest_agent(p.threat, p.sight)
    if tx == nil then
      return 0, 0
    end
    local hx, hy = a:hiding_spot(tx, ty, p.range, s.body_length / 2 + p.gap)
    if hx == nil then
      return flee(a, s, tx, ty)
    end
    return arrive(a, s, hx, hy, s.cruise_speed, p.gain)
  end,
}
