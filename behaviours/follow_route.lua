-- behaviours/follow_route.lua — head for a goal along a path round the obstacles the engine finds for this agent (a:route: A* on a grid, pulled taut; issue 34, paths for single agents).
-- Each agent asks a:route(x, y) for the next waypoint of its own shortest path to the goal (the
-- named goal `goal`, or (x, y) when goal is ""), cached per agent by the engine. The wanted
-- velocity w points at that waypoint at `speed`; on the last leg it is the offset to the goal cut
-- to `speed` (RVO2's preferred velocity, as seek_antipode's), so the agent slows over the last
-- `speed` units and stops there. The acceleration closes on w over `time` seconds, a = (w - v) /
-- time, the same at any dt. A goal it cannot reach (walled in, or inside an obstacle farther than
-- FB_NAV_RINGS cells) gives no steering: the agent stops, its other rules still acting.
local truncate = steering.truncate

return {
  params = {
    goal = { "", help = "the goal headed for (\"\" = the point x, y)" },
    x = { 0, help = "the goal, x (world units; when goal is \"\")" },
    y = { 0, help = "the goal, y (world units; when goal is \"\")" },
    speed = { 1, min = 0, help = "preferred speed, units/s" },
    time = { 0.25, min = 1e-6, help = "seconds over which the velocity closes on the wanted one" },
  },

  steer = function(a, p)
    local gx, gy = p.x, p.y
    if p.goal ~= "" then
      gx, gy = fb.goal(p.goal)
      if gx == nil then -- no such goal (yet): nothing to head for
        return 0, 0
      end
    end
    local dx, dy, _, n = a:route(gx, gy)
    if dx == nil then -- no way there
      return 0, 0
    end
    local wx, wy
    if n == 1 then
      wx, wy = truncate(dx, dy, p.speed) -- the last leg: slow down onto the goal
    else
      local d = math.sqrt(dx * dx + dy * dy)
      wx, wy = d > 0 and dx / d * p.speed or 0, d > 0 and dy / d * p.speed or 0
    end
    return (wx - a.vx) / p.time, (wy - a.vy) / p.time
  end,
}
