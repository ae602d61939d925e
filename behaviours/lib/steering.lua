-- behaviours/lib/steering.lua — the steering library every rule gets as `steering`: vectors as pairs of numbers, and the seeds' primitives.
--
-- Conventions (the same everywhere in flockbox): world units and seconds; the world is y-down
-- like the screen, so an angle turns from +x toward +y, clockwise on screen; the right side of a
-- unit heading (hx, hy) is (-hy, hx). Vectors go in and come out as two numbers, never tables, so
-- a rule that uses the library allocates nothing. Accelerations are in world units/s^2.
-- A module gets its own copy of this table: changing it changes nothing for any other rule.
local sqrt, atan, acos, abs, cos, sin, rad, pi = math.sqrt, math.atan, math.acos, math.abs, math.cos, math.sin,
  math.rad, math.pi

local steering = {}

-- ---- vectors -----------------------------------------------------------------------------------

-- |(x, y)|
---@return number len
local function length(x, y)
  return sqrt(x * x + y * y)
end

-- (x, y) / |(x, y)| and |(x, y)|; (0, 0, 0) for the zero vector.
---@return number ux, number uy, number len
local function normalise(x, y)
  local l = sqrt(x * x + y * y)
  if l == 0 then
    return 0, 0, 0
  end
  return x / l, y / l, l
end

-- (x, y) scaled down to length max when it is longer (Parker's limit_velocity).
---@return number x, number y
local function truncate(x, y, max)
  local l = sqrt(x * x + y * y)
  if l > max and l > 0 then
    return x * max / l, y * max / l
  end
  return x, y
end

-- a . b
---@return number dot
local function dot(ax, ay, bx, by)
  return ax * bx + ay * by
end

-- The z of the 3D cross product: > 0 when b lies to the right of a (y-down world).
---@return number z
local function cross(ax, ay, bx, by)
  return ax * by - ay * bx
end

-- (x, y) turned a quarter to the right: (-y, x).
---@return number x, number y
local function perp(x, y)
  return -y, x
end

-- (x, y) turned by angle radians toward +y (clockwise on screen).
---@return number x, number y
local function rotate(x, y, angle)
  local c, s = cos(angle), sin(angle)
  return c * x - s * y, s * x + c * y
end

-- The parts of the offset (dx, dy) along the right side r = (-hy, hx) of a unit heading (hx, hy)
-- and along the heading: > 0 to the right and ahead.
---@return number side, number ahead
local function right_of(hx, hy, dx, dy)
  return dx * -hy + dy * hx, dx * hx + dy * hy
end

steering.length, steering.normalise, steering.truncate = length, normalise, truncate
steering.dot, steering.cross, steering.perp, steering.rotate, steering.right_of = dot, cross, perp, rotate, right_of

-- ---- how hard ----------------------------------------------------------------------------------

-- A push given as a parameter where 0 means "as hard as the species can": p.force or max_accel.
---@return number force
function steering.force_or_max(force, s)
  return force > 0 and force or s.max_accel
end

-- Gompert's steering (appendix A): a wish expressed as a fraction of the maximum acceleration,
-- its length capped at 1, becomes an acceleration: fraction * max_accel.
---@return number ax, number ay
local function capped(fx, fy, s)
  local f = sqrt(fx * fx + fy * fy)
  if f > 1 then
    fx, fy = fx / f, fy / f
  end
  return fx * s.max_accel, fy * s.max_accel
end
steering.capped = capped

-- ---- toward a velocity or a place ---------------------------------------------------------------

-- Gompert eq. 5-6: steer the velocity toward (wx, wy). The difference, over half the maximum speed
-- and times gain, is the fraction of max_accel asked for (capped at 1): an agent at rest wanting
-- full speed asks for all it has.
---@return number ax, number ay
local function match_velocity(a, s, wx, wy, gain)
  local k = gain / (s.max_speed / 2)
  return capped((wx - a.vx) * k, (wy - a.vy) * k, s)
end
steering.match_velocity = match_velocity

-- Reynolds' seek: toward the offset (dx, dy) at `speed` (default: the species' max speed).
---@param speed? number
---@param gain? number
---@return number ax, number ay
function steering.seek(a, s, dx, dy, speed, gain)
  local d = sqrt(dx * dx + dy * dy)
  if d == 0 then
    return 0, 0
  end
  local k = (speed or s.max_speed) / d
  return match_velocity(a, s, dx * k, dy * k, gain or 1)
end

-- Reynolds' flee: straight away from the offset (dx, dy) at `speed` (default: max speed).
---@param speed? number
---@param gain? number
---@return number ax, number ay
function steering.flee(a, s, dx, dy, speed, gain)
  local d = sqrt(dx * dx + dy * dy)
  if d == 0 then
    return 0, 0
  end
  local k = (speed or s.max_speed) / d
  return match_velocity(a, s, -dx * k, -dy * k, gain or 1)
end

-- Gompert eq. 5-6, a cruising arrival: the wanted velocity is the offset itself (as if to get
-- there in one second) but at most `speed`, so the agent cruises from afar and slows down over the
-- last `speed` units instead of overshooting (Reynolds' arrive, with a slowing distance of one
-- second at that speed).
---@param gain? number
---@return number ax, number ay
function steering.arrive(a, s, dx, dy, speed, gain)
  local wx, wy = truncate(dx, dy, speed)
  return match_velocity(a, s, wx, wy, gain or 1)
end

-- ---- prediction ----------------------------------------------------------------------------------

-- Bourg's closing time: |s12| / |v_rel| for a target at distance `dist` moving at (rvx, rvy)
-- relative to the agent, capped at `horizon` seconds (a target moving exactly as the agent never
-- closes in).
---@return number t
local function closing_time(dist, rvx, rvy, horizon)
  local closing = sqrt(rvx * rvx + rvy * rvy)
  if closing * horizon > dist then
    return dist / closing
  end
  return horizon
end
steering.closing_time = closing_time

-- Where a target at offset (dx, dy), distance dist, moving at (tvx, tvy), will be when the agent
-- could reach it: its offset after the closing time (Bourg's intercept aim point s1).
---@return number qx, number qy
local function predict(a, dx, dy, dist, tvx, tvy, horizon)
  local t = closing_time(dist, tvx - a.vx, tvy - a.vy, horizon)
  return dx + tvx * t, dy + tvy * t
end
steering.predict = predict

-- Reynolds' pursue and evade: seek or flee the predicted position instead of the present one.
---@param speed? number
---@param gain? number
---@return number ax, number ay
function steering.pursue(a, s, dx, dy, dist, tvx, tvy, horizon, speed, gain)
  local qx, qy = predict(a, dx, dy, dist, tvx, tvy, horizon)
  return steering.seek(a, s, qx, qy, speed, gain)
end

-- Reynolds' evade: flee the predicted position (from where it is if it will be right here).
---@param speed? number
---@param gain? number
---@return number ax, number ay
function steering.evade(a, s, dx, dy, dist, tvx, tvy, horizon, speed, gain)
  local qx, qy = predict(a, dx, dy, dist, tvx, tvy, horizon)
  if qx == 0 and qy == 0 then -- it will be right here: run from where it is
    qx, qy = dx, dy
  end
  return steering.flee(a, s, qx, qy, speed, gain)
end

-- Reynolds 1999, "Unaligned collision avoidance": the time of nearest approach of another agent at
-- offset d = (dx, dy) moving at (rvx, rvy) relative to this one. Its offset at time t is d + rv t,
-- whose squared length is least at  t = -(d . rv) / |rv|^2,  held within [0, horizon] (an agent
-- drawing away is nearest now; one that never closes within the horizon, at the horizon).
-- Returns t and the offset (qx, qy) and distance then.
---@return number t, number qx, number qy, number dist
function steering.nearest_approach(dx, dy, rvx, rvy, horizon)
  local rv2 = rvx * rvx + rvy * rvy
  local t = 0
  if rv2 > 0 then
    t = -(dx * rvx + dy * rvy) / rv2
    if t < 0 then
      t = 0
    elseif t > horizon then
      t = horizon
    end
  end
  local qx, qy = dx + rvx * t, dy + rvy * t
  return t, qx, qy, sqrt(qx * qx + qy * qy)
end

-- ---- formations -----------------------------------------------------------------------------------

-- The world vector of a vector given in the frame of a unit heading (hx, hy): `ahead` along the
-- heading and `right` along its right side (-hy, hx). The inverse of right_of.
---@return number x, number y
local function from_local(hx, hy, ahead, right)
  return ahead * hx - right * hy, ahead * hy + right * hx
end
steering.from_local = from_local

-- Reynolds' offset pursuit (Steering Behaviors For Autonomous Characters, GDC 1999, "Offset
-- Pursuit"), arriving at the point instead of passing it. The target is a point fixed in a
-- leader's local frame: (ahead, right) from the leader, rotated by the leader's unit heading
-- (hx, hy), o = from_local(hx, hy, ahead, right). With the leader at offset (dx, dy) from the agent
-- and moving at v_L = (lvx, lvy), the slot is at the offset q0 = (dx, dy) + o now. Reynolds aims at
-- where it will be T seconds on; the slot moves with the leader and, when the leader turns at
-- `turn` rad/s (optional, clockwise on screen positive), swings round it at turn * perp(o):
--   q = q0 + T v_s,   v_s = v_L + turn * perp(o).
-- The wanted velocity is the one that gets there in those T seconds,
--   w = q / T = v_s + q0 / T,   capped at `speed` (default max_speed),
-- so far away the agent pursues flat out and, near the slot, matches the slot's own velocity plus
-- a correction that shrinks with the distance: it arrives without overshooting and then holds the
-- slot with no steady error, in a turn too. w is steered to by match_velocity (Gompert eq. 5-6),
-- whose gain 2 gain max_accel / max_speed (4 gain /s at Gompert's max_accel = 2 max_speed) makes
-- the error e'' + 4e' + 4e/T = 0 critically damped at T = 1 s. All per second: the same at any dt.
---@param speed? number
---@param gain? number
---@param turn? number
---@return number ax, number ay
function steering.offset_pursuit(a, s, dx, dy, lvx, lvy, hx, hy, ahead, right, T, speed, gain, turn)
  local ox, oy = from_local(hx, hy, ahead, right)
  local svx, svy = lvx, lvy
  if turn then
    svx, svy = svx - turn * oy, svy + turn * ox
  end
  local k = 1 / T
  local wx, wy = truncate(svx + (dx + ox) * k, svy + (dy + oy) * k, speed or s.max_speed)
  return match_velocity(a, s, wx, wy, gain or 1)
end

-- ---- Bourg's sideways steering ---------------------------------------------------------------------

-- Bourg's chase and intercept: a push of `force` along the unit's right side r = (-hy, hx), toward
-- the side the offset (dx, dy) is on (dead behind counts as right). Within `settle` degrees of the
-- line to it the push shrinks in proportion to the angle, so the unit holds the line instead of
-- flicking from side to side (settle = 0: Bourg's bang-bang). Nothing when it is dead ahead.
---@return number ax, number ay
function steering.side_steer(a, dx, dy, force, settle)
  local hx, hy = a.hx, a.hy
  local side, ahead = right_of(hx, hy, dx, dy)
  if side == 0 and ahead >= 0 then
    return 0, 0
  end
  local k = (side < 0 and -1 or 1) * force
  if settle > 0 then
    local angle = atan(abs(side), ahead) -- 0 .. pi off the line to the point
    local limit = rad(settle)
    if angle < limit then
      k = k * angle / limit
    end
  end
  return k * -hy, k * hx
end

-- Bourg's alignment and cohesion: a sideways push toward the unit direction (ux, uy), in
-- proportion to the angle between it and the heading: force * angle / pi along the right side
-- when (ux, uy) lies to the right, along the left otherwise. Nothing when aligned already or
-- exactly opposite (no side to prefer).
---@return number ax, number ay
function steering.turn_toward(a, ux, uy, force)
  local hx, hy = a.hx, a.hy
  local c = hx * ux + hy * uy
  if c >= 1 or c <= -1 then
    return 0, 0
  end
  local rx, ry = -hy, hx
  local m = (rx * ux + ry * uy) > 0 and 1 or -1
  local k = m * force * acos(c) / pi
  return k * rx, k * ry
end

-- ---- Parker's pseudocode ----------------------------------------------------------------------------

-- Parker's pseudocode has no clock: a velocity is "how far the boid moves per time step", and a
-- rule adds a velocity change to it every step. Taken as happening at a reference step T seconds
-- long, a per-step change dv_step of a per-step velocity is, in world units and seconds,
--   v = v_step / T   and   a = dv / T = dv_step / T^2.
-- So a rule that adds a share 1/divisor of a position offset d each step (rule 1, tend_to_place)
-- is the acceleration  a = d / (divisor T^2),  the same whatever the engine's dt: at dt = T one
-- engine step is one of Parker's, and smaller steps converge to the same motion. A rule that adds
-- a share of a velocity difference (rule 3) needs one factor of T only (steering.tend_velocity).
-- Every Parker rule names its T as the parameter `step` (0.05 s: Parker's frame at 20 per second,
-- the demos' dt). With max > 0 the result's length is capped at max.
---@param max? number
---@return number ax, number ay
function steering.tend(dx, dy, divisor, step, max)
  local k = 1 / (divisor * step * step)
  local ax, ay = dx * k, dy * k
  if max and max > 0 then
    return truncate(ax, ay, max)
  end
  return ax, ay
end

-- Parker's per-step share 1/divisor of a velocity difference (dvx, dvy) (rule 3) at the reference
-- step T:  a = dv / (divisor T).
---@return number ax, number ay
function steering.tend_velocity(dvx, dvy, divisor, step)
  local k = 1 / (divisor * step)
  return dvx * k, dvy * k
end

-- ---- wandering -----------------------------------------------------------------------------------------

-- Reynolds' wander: a direction that drifts off the heading by a random walk. angle is the drift
-- so far (radians, kept by the rule in a per-agent field), u a uniform number in [0, 1) from
-- a:random; returns the new drift, and the unit direction heading + drift.
-- A random walk's spread after a time t is sqrt(steps) times its step, so for the spread not to
-- depend on dt the step must shrink as sqrt(dt): each step adds (2u - 1) rate sqrt(dt step), where
-- rate is the drift per second at the reference step `step` (seconds; dt when not given). The
-- variance added per second, rate^2 step / 3, is then the same at any dt.
---@param step? number
---@return number angle, number x, number y
function steering.wander(a, angle, u, rate, limit, dt, step)
  angle = angle + (2 * u - 1) * rate * sqrt(dt * (step or dt))
  if angle > limit then
    angle = limit
  elseif angle < -limit then
    angle = -limit
  end
  local x, y = rotate(a.hx, a.hy, angle)
  return angle, x, y
end

return steering
