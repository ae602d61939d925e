-- behaviours/intercept.lua — steer for where the target will be after the closing time |s12| / |v_rel| (Bourg & Seemann, AI for Game Developers, ch. 4, "Follow the Leader", intercept).
-- Bourg's intercept: v_rel = v_target - v, s12 = target position - own position,
-- t_close = |s12| / |v_rel|, aim point s1 = target position + v_target * t_close (steering.predict);
-- then the same sideways push as chase toward the side s1 is on:  a = m * force * r,  r = (-hy, hx)
-- (steering.side_steer). t_close is capped at `horizon` seconds (a target moving exactly like the
-- unit has |v_rel| = 0). As in chase, within `settle` degrees of the aim the push shrinks with the
-- angle (0 = bang-bang), speed is left to the species, and leaders_only = true restricts it to
-- units with `leader` set.
local huge = math.huge
local predict, side_steer, force_or_max = steering.predict, steering.side_steer, steering.force_or_max

return {
  params = {
    target = { "player", help = "the species intercepted (the nearest of its agents)" },
    radius = { 0, min = 0, circle = true, help = "how far the target is seen, world units (0 = anywhere in the world)" },
    force = { 0, min = 0, help = "the steering push, world units/s^2 (0 = the species' max_accel)" },
    settle = { 15, min = 0, max = 180, help = "degrees off the aim within which the push shrinks (0 = bang-bang)" },
    horizon = { 10, min = 0, help = "the longest closing time looked ahead, seconds" },
    leaders_only = { false, help = "only units whose leader field is set intercept (with the leader rule)" },
  },

  fields = { leader = 0 }, -- set by the leader rule; declared here too, so that it always reads as a number

  steer = function(a, p, s)
    if p.leaders_only and a.leader == 0 then
      return 0, 0
    end
    local dx, dy, dist, tvx, tvy = a:nearest_agent(p.target, p.radius > 0 and p.radius or huge)
    if dx == nil then
      return 0, 0
    end
    local aim_x, aim_y = predict(a, dx, dy, dist, tvx, tvy, p.horizon) -- s1, relative to the unit
    return side_steer(a, aim_x, aim_y, force_or_max(p.force, s), p.settle)
  end,
}
