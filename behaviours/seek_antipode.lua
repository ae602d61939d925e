-- behaviours/seek_antipode.lua — head for the point opposite the start across a centre at a preferred speed (RVO2's Circle example; van den Berg et al. 2011, section 6).
-- On its first step the agent fixes its goal g = 2 c - p0, the antipode of where it starts across
-- the centre c, in its fields goal_x, goal_y. The wanted velocity is RVO2's preferred velocity:
-- the offset g - p, cut to `speed` when longer (so it slows over the last `speed` units), and the
-- acceleration closes the gap to it over `time` seconds, a = (v_w - v) / time: a first-order
-- approach, the same at any dt. With time = dt the next velocity is v_w itself, RVO2's step.
local truncate = steering.truncate

return {
  params = {
    x = { 0, help = "the centre c, x (world units)" },
    y = { 0, help = "the centre c, y (world units)" },
    speed = { 1, min = 0, help = "preferred speed, units/s (RVO2's Circle: 1)" },
    time = { 0.25, min = 1e-6, help = "seconds over which the velocity closes on the wanted one" },
  },

  fields = { goal_x = 0, goal_y = 0, has_goal = 0 },

  steer = function(a, p)
    local gx, gy = a.goal_x, a.goal_y
    if a.has_goal == 0 then -- the first step: the fields are seen from the next one on
      gx, gy = 2 * p.x - a.x, 2 * p.y - a.y
      a:set("goal_x", gx)
      a:set("goal_y", gy)
      a:set("has_goal", 1)
    end
    local wx, wy = truncate(gx - a.x, gy - a.y, p.speed)
    return (wx - a.vx) / p.time, (wy - a.vy) / p.time
  end,
}
