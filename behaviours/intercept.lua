-- behaviours/intercept.lua — steer for where the target will be after the closing time |s12| / |v_rel| (Bourg & Seemann, AI for Game Developers, ch. 4, "Follow the Leader", intercept).
-- Bourg's intercept: v_rel = v_target - v, s12 = target position - own position,
-- t_close = |s12| / |v_rel|, aim point s1 = target position + v_target * t_close; then the same
-- sideways push as chase toward the side s1 is on:  a = m * force * r,  r = (-hy, hx).
-- t_close is capped at `horizon` seconds (a target moving exactly like the unit has |v_rel| = 0).
-- As in chase, within `settle` degrees of the aim the push shrinks with the angle (0 = bang-bang),
-- speed is left to the species, and leaders_only = true restricts it to units with `leader` set.
local sqrt, atan, abs, rad = math.sqrt, math.atan, math.abs, math.rad

return {
  params = {
    target = "player", -- the species intercepted (the nearest of its agents)
    radius = 0,        -- how far the target is seen (world units); 0 = anywhere in the world
    force = 0,         -- the steering push, world units/s^2 (0 = the species' max_accel)
    settle = 15,       -- degrees off the aim below which the push shrinks (0 = Bourg's bang-bang)
    horizon = 10,      -- the longest closing time looked ahead, seconds
    leaders_only = false,
  },

  validate = function(p)
    if not (p.radius >= 0) then
      return "radius", "must be >= 0 (0 = anywhere)"
    end
    if not (p.force >= 0) then
      return "force", "must be >= 0 (0 = the species' max_accel)"
    end
    if not (p.settle >= 0 and p.settle <= 180) then
      return "settle", "must be in [0, 180] degrees"
    end
    if not (p.horizon >= 0) then
      return "horizon", "must be >= 0 seconds"
    end
  end,

  steer = function(a, p, s)
    if p.leaders_only and a:get("leader") == 0 then
      return 0, 0
    end
    local radius = p.radius > 0 and p.radius or sqrt(s.width * s.width + s.height * s.height)
    local dx, dy, dist, tvx, tvy = a:nearest(p.target, radius)
    if dx == nil then
      return 0, 0
    end
    local rvx, rvy = tvx - a.vx, tvy - a.vy
    local closing = sqrt(rvx * rvx + rvy * rvy)
    local t = p.horizon
    if closing * p.horizon > dist then
      t = dist / closing
    end
    dx, dy = dx + tvx * t, dy + tvy * t -- the aim point s1, relative to the unit
    local hx, hy = a.hx, a.hy
    local rx, ry = -hy, hx
    local side, ahead = dx * rx + dy * ry, dx * hx + dy * hy
    if side == 0 and ahead >= 0 then
      return 0, 0
    end
    local m = side < 0 and -1 or 1
    local k = m * (p.force > 0 and p.force or s.max_accel)
    if p.settle > 0 then
      local angle = atan(abs(side), ahead)
      local settle = rad(p.settle)
      if angle < settle then
        k = k * angle / settle
      end
    end
    return k * rx, k * ry
  end,
}
