-- behaviours/queue.lua — brake behind a slower agent ahead, so a crowd files through a door instead of piling up (Reynolds, "Steering Behaviors For Autonomous Characters", 1999, queuing demo "Doorway").
-- Reynolds' queuing brakes "when the vehicle detects other vehicles which are: nearby, in front of,
-- and moving slower than itself". With h the heading, v = |v| the speed, and for each flock-mate in
-- view its offset d (distance |d|) and velocity u:
--   in front:  d . h >= |d| cos(cone)      (within a cone of half-angle `cone` about the heading)
--   nearby and slower:  |d| < range  and  u . h < v     -> brake toward the speed  max(u . h, 0)
--   too near:  |d| - body_length < v^2 / (2 max_accel) + margin   -> brake toward a stop
-- (the second: the gap between two bodies of this size is inside the distance this agent needs to
-- stop at max_accel, plus a margin, whatever the other's speed). The lowest such speed w wins, and
-- the brake acts along the heading only, so it never fights the sideways steering of other rules:
--   a = -h * min(1, gain (v - w) / (max_speed / 2)) * max_accel     (Gompert eq. 6's fraction form)
-- Nothing when nobody is in front or the agent is already slow enough.
local cos, rad, huge = math.cos, math.rad, math.huge

-- The slowest speed along the heading (hx, hy) the flock-mates in front ask this agent to keep,
-- or huge when none asks anything.
local function queue_speed(a, p, s, hx, hy)
  local speed, lowest = a.speed, huge
  local min_cos = cos(rad(p.cone))
  local stopping = speed * speed / (2 * s.max_accel) + p.margin
  for k = 1, a.n do
    local dx, dy, dist, vx, vy = a:neighbour(k)
    if dist > 0 and dx * hx + dy * hy >= dist * min_cos then
      if dist - s.body_length < stopping then
        return 0
      end
      local along = vx * hx + vy * hy
      if dist < p.range and along < speed and along < lowest then
        lowest = along > 0 and along or 0
      end
    end
  end
  return lowest
end

return {
  params = {
    range = { 3, min = 0, circle = true, help = "how near an agent in front must be to be queued behind, world units" },
    cone = { 30, min = 0, max = 90, help = "half-angle of the cone about the heading counted as in front, degrees" },
    margin = { 0.5, min = 0, help = "gap kept beyond the stopping distance v^2 / (2 max_accel), world units" },
    gain = { 2, min = 0, help = "how hard the speed is braked toward the queue's (Gompert's K in eq. 6)" },
  },

  steer = function(a, p, s)
    local speed = a.speed
    if speed == 0 then
      return 0, 0
    end
    local hx, hy = a.hx, a.hy
    local want = queue_speed(a, p, s, hx, hy)
    if want >= speed then
      return 0, 0
    end
    local f = p.gain * (speed - want) / (s.max_speed / 2)
    if f > 1 then
      f = 1
    end
    return -hx * f * s.max_accel, -hy * f * s.max_accel
  end,
}
