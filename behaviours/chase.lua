-- behaviours/chase.lua — steer along the line of sight to the nearest agent of a target species (Bourg & Seemann, AI for Game Developers, ch. 4, "Follow the Leader", chase).
-- Bourg's chase: d = target position - own position; a sideways push of the full steering force
-- toward the side the target is on:  a = m * force * r,  r = (-hy, hx) the right side in this
-- y-down world, m = +1 if the target is to the right (d . r > 0), -1 if to the left.
-- One change: within `settle` degrees of the line of sight the push shrinks in proportion to the
-- angle, so the unit holds the line instead of flicking from side to side every step (settle = 0
-- is Bourg's bang-bang). A target dead behind has no side; the unit turns right. That push is
-- steering.side_steer.
-- Speed is left to the species (Bourg's units keep their thrust): give them a min_speed.
-- leaders_only = true: only units whose `leader` field is set chase (use with the leader rule);
-- the others just flock.
local huge = math.huge
local side_steer, force_or_max = steering.side_steer, steering.force_or_max

return {
  params = {
    target = { "player", help = "the species chased (the nearest of its agents)" },
    radius = { 0, min = 0, circle = true, help = "how far the target is seen, world units (0 = anywhere in the world)" },
    force = { 0, min = 0, help = "the steering push, world units/s^2 (0 = the species' max_accel)" },
    settle = { 15, min = 0, max = 180, help = "degrees off the target within which the push shrinks (0 = bang-bang)" },
    leaders_only = { false, help = "only units whose leader field is set chase (with the leader rule)" },
  },

  fields = { leader = 0 }, -- set by the leader rule; declared here too, so that it always reads as a number

  steer = function(a, p, s)
    if p.leaders_only and a.leader == 0 then
      return 0, 0
    end
    local dx, dy = a:nearest_agent(p.target, p.radius > 0 and p.radius or huge)
    if dx == nil then
      return 0, 0
    end
    return side_steer(a, dx, dy, force_or_max(p.force, s), p.settle)
  end,
}
