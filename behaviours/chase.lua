-- behaviours/chase.lua — steer along the line of sight to the nearest agent of a target species (Bourg & Seemann, AI for Game Developers, ch. 4, "Follow the Leader", chase).
-- Bourg's chase: d = target position - own position; a sideways push of the full steering force
-- toward the side the target is on:  a = m * force * r,  r = (-hy, hx) the right side in this
-- y-down world, m = +1 if the target is to the right (d . r > 0), -1 if to the left.
-- One change: within `settle` degrees of the line of sight the push shrinks in proportion to the
-- angle, so the unit holds the line instead of flicking from side to side every step (settle = 0
-- is Bourg's bang-bang). A target dead behind has no side; the unit turns right.
-- Speed is left to the species (Bourg's units keep their thrust): give them a min_speed.
-- leaders_only = true: only units whose `leader` field is set chase (use with the leader rule);
-- the others just flock.
local sqrt, atan, abs, rad = math.sqrt, math.atan, math.abs, math.rad

return {
  params = {
    target = "player", -- the species chased (the nearest of its agents)
    radius = 0,        -- how far the target is seen (world units); 0 = anywhere in the world
    force = 0,         -- the steering push, world units/s^2 (0 = the species' max_accel)
    settle = 15,       -- degrees off the line of sight below which the push shrinks (0 = Bourg's bang-bang)
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
  end,

  steer = function(a, p, s)
    if p.leaders_only and a:get("leader") == 0 then
      return 0, 0
    end
    local radius = p.radius > 0 and p.radius or sqrt(s.width * s.width + s.height * s.height)
    local dx, dy = a:nearest(p.target, radius)
    if dx == nil then
      return 0, 0
    end
    local hx, hy = a.hx, a.hy
    local rx, ry = -hy, hx
    local side, ahead = dx * rx + dy * ry, dx * hx + dy * hy
    if side == 0 and ahead >= 0 then -- dead ahead (or on top of it): nothing to correct
      return 0, 0
    end
    local m = side < 0 and -1 or 1
    local k = m * (p.force > 0 and p.force or s.max_accel)
    if p.settle > 0 then
      local angle = atan(abs(side), ahead) -- 0 .. pi off the line of sight
      local settle = rad(p.settle)
      if angle < settle then
        k = k * angle / settle
      end
    end
    return k * rx, k * ry
  end,
}
