-- behaviours/couzin.lua — zones of repulsion, orientation and attraction, a blind angle behind, a limited turn and Gaussian noise, in the plane (Couzin, Krause, James, Ruxton & Franks 2002).
-- Each time step tau, individual i with unit heading v_i looks at the neighbours j it perceives (the
-- species' vision: field of view alpha, so a blind angle of 360 - alpha behind), r_ij the unit vector
-- from i to j and d_ij the distance:
--   zone of repulsion,   d_ij < r_r:              d_r = - sum_j r_ij
--   zone of orientation, r_r <= d_ij < r_o:       d_o = v_i + sum_j v_j     (i itself included)
--   zone of attraction,  r_o <= d_ij < r_a:       d_a = sum_j r_ij
-- with r_o = r_r + orientation and r_a = r_o + attraction (the widths Delta r_o, Delta r_a). Repulsion
-- has strict priority: any neighbour within r_r and the desired direction d is d_r alone. Otherwise
-- d = d_o when only the orientation zone holds neighbours, d_a when only the attraction zone does,
-- and (d_o / |d_o| + d_a / |d_a|) / 2 when both do: each normalised first, so the two tendencies
-- weigh the same however many neighbours make each. With no neighbour, or d = 0, d is i's heading.
-- d is then turned by a Gaussian angle of standard deviation `noise`, and i turns toward it by at most
-- theta tau (turn_rate times the step); a smaller angle is taken whole. It moves at the constant
-- speed s. theta is read as a rate, 40 degrees per second, so 4 degrees a step at tau = 0.1 s. Read
-- as 40 degrees a step (turn_rate = 400) the fish turn so sharply that repulsion, which has
-- priority, keeps them in a dense swarm and no mill forms at any Delta r_o (docs/experiments.md).
-- How it fits the engine (as behaviours/vicsek.lua): the rule sets the velocity, returning
-- a = (v_new - v) / dt, which a species with this rule alone, a max_accel above 2 s / dt (nothing
-- cut) and min_speed = max_speed = s passes whole; world.update = "semi_implicit" moves i by v_new,
-- x(t + tau) = x(t) + v_new tau, the scenario's dt being tau. Every agent reads the state of step t
-- (the engine's double buffer), so the update is synchronous, as in the paper. The species' vision
-- radius should reach r_a: the zones end where the vision does (scripts/couzin.lua: 31).
local atan, cos, sin, sqrt, log, pi, rad = math.atan, math.cos, math.sin, math.sqrt, math.log, math.pi, math.rad

-- A standard normal number from two uniform draws of the agent's stream (Box-Muller).
local function gaussian(a)
  local u1, u2 = a:random(1), a:random(2)
  return sqrt(-2 * log(1 - u1)) * cos(2 * pi * u2) -- 1 - u1 is in (0, 1]: log is finite
end

-- The desired direction (dx, dy), not normalised, and false when nothing is perceived.
local function desired(a, p)
  local rr = p.repulsion
  local ro = rr + p.orientation
  local ra = ro + p.attraction
  local rx, ry, nr = 0, 0, 0                 -- repulsion sum
  local ox, oy, no = a.hx, a.hy, 0           -- orientation sum, i's own heading included
  local ax, ay, na = 0, 0, 0                 -- attraction sum
  for k = 1, a.n do
    local dx, dy, dist, vx, vy = a:neighbour(k)
    if dist < rr then
      if dist > 0 then
        rx, ry, nr = rx - dx / dist, ry - dy / dist, nr + 1
      end
    elseif nr == 0 then                      -- once repulsion acts the other zones do not matter
      if dist < ro then
        local v = sqrt(vx * vx + vy * vy)
        if v > 0 then
          ox, oy, no = ox + vx / v, oy + vy / v, no + 1
        end
      elseif dist < ra then
        ax, ay, na = ax + dx / dist, ay + dy / dist, na + 1
      end
    end
  end
  if nr > 0 then
    return rx, ry, true
  elseif no > 0 and na > 0 then
    local lo, la = sqrt(ox * ox + oy * oy), sqrt(ax * ax + ay * ay)
    if lo == 0 or la == 0 then               -- one sum cancelled out: the other alone
      return lo == 0 and ax or ox, lo == 0 and ay or oy, true
    end
    return 0.5 * (ox / lo + ax / la), 0.5 * (oy / lo + ay / la), true
  elseif no > 0 then
    return ox, oy, true
  elseif na > 0 then
    return ax, ay, true
  end
  return 0, 0, false
end

-- The heading angle after turning from `from` toward `to` by at most `most` radians.
local function turn_toward(from, to, most)
  local d = (to - from + pi) % (2 * pi) - pi  -- signed, in [-pi, pi)
  if d > most then
    d = most
  elseif d < -most then
    d = -most
  end
  return from + d
end

return {
  params = {
    repulsion = { 1, min = 0, circle = true, help = "r_r: neighbours nearer than this are moved away from, and nothing else counts, world units" },
    orientation = { 2, min = 0, help = "Delta r_o = r_o - r_r: the width of the zone whose headings are aligned with, world units" },
    attraction = { 14, min = 0, help = "Delta r_a = r_a - r_o: the width of the zone beyond it whose members are moved toward, world units" },
    speed = { 3, min = 0, help = "s: the constant speed, units/s" },
    turn_rate = { 40, min = 0, help = "theta: the largest turn, degrees per second; theta tau a step (4 degrees at tau = 0.1 s)" },
    noise = { 0.05, min = 0, help = "sigma: the standard deviation of the Gaussian angle added to the desired direction, radians" },
  },

  steer = function(a, p)
    local heading = atan(a.hy, a.hx)
    local dx, dy, seen = desired(a, p)
    local want = (seen and (dx ~= 0 or dy ~= 0)) and atan(dy, dx) or heading
    local dt = fb.world.dt
    heading = turn_toward(heading, want + p.noise * gaussian(a), rad(p.turn_rate) * dt)
    local v = p.speed
    return (v * cos(heading) - a.vx) / dt, (v * sin(heading) - a.vy) / dt
  end,
}
