-- behaviours/interpose.lua — stand between two other agents, at the midpoint of where they will be (Reynolds, "Steering Behaviors For Autonomous Characters", 1999, "Interpose").
-- With A and B the nearest agents of the two species named (offsets a, b from this agent,
-- velocities v_a, v_b), the midpoint now is m = (a + b) / 2; T = |m| / max_speed is how long this
-- agent needs to get there at full speed; where they will be then is predicted,
--   a' = a + v_a T,  b' = b + v_b T,  target = (a' + b') / 2,
-- and the agent arrives there (steering.arrive: full speed from afar, slowing over the last second).
-- Nothing while either is out of sight.
local arrive, length = steering.arrive, steering.length
local huge = math.huge

return {
  params = {
    first = { "vip", help = "the species of one agent to stand between (its nearest agent)" },
    second = { "threat", help = "the species of the other (its nearest agent)" },
    sight = { 0, min = 0, circle = true, help = "how far the two are seen, world units (0 = anywhere in the world)" },
    gain = { 1, min = 0, help = "how hard the velocity is steered toward the target (Gompert's K in eq. 6)" },
  },

  steer = function(a, p, s)
    local sight = p.sight > 0 and p.sight or huge
    local ax, ay, _, avx, avy = a:nearest_agent(p.first, sight)
    if ax == nil then
      return 0, 0
    end
    local bx, by, _, bvx, bvy = a:nearest_agent(p.second, sight)
    if bx == nil then
      return 0, 0
    end
    local t = length((ax + bx) / 2, (ay + by) / 2) / s.max_speed
    local tx = (ax + avx * t + bx + bvx * t) / 2
    local ty = (ay + avy * t + by + bvy * t) / 2
    return arrive(a, s, tx, ty, s.max_speed, p.gain)
  end,
}
