-- scripts/bodyguards.lua — a VIP walks a route, a threat closes in; bodyguards step between them and
-- bystanders hide behind pillars (Reynolds, "Steering Behaviors For Autonomous Characters", 1999, interpose and hide).
-- The VIP follows a path's object; the threat seeks the VIP (a goal moved onto it each step). Three
-- bodyguards interpose between the VIP and the threat; 24 bystanders hide from the threat behind
-- the nearest pillar or block (a:hiding_spot), fleeing when none is near. Columns: guarded (share
-- of the steps so far with a bodyguard on the segment VIP-threat, within 1.5 units) and hidden
-- (share of bystanders now with a pillar or block across their line of sight to the threat).
-- Try: flockbox --headless --steps 1200 --csv guards.csv scripts/bodyguards.lua

local CIRCLES = { { 40, 30, 4 }, { 80, 22, 3 }, { 120, 32, 4 }, { 55, 70, 3.5 }, { 100, 75, 4 }, { 140, 68, 3 } }
local BLOCKS = { { 70, 45, 78, 53 }, { 20, 55, 28, 63 } } -- x0, y0, x1, y1
local GUARD_TOLERANCE = 1.5

local obstacles = {}
for _, c in ipairs(CIRCLES) do
  obstacles[#obstacles + 1] = { circle = c }
end
for _, b in ipairs(BLOCKS) do
  obstacles[#obstacles + 1] = { polygon = { { b[1], b[2] }, { b[3], b[2] }, { b[3], b[4] }, { b[1], b[4] } } }
end

-- Does the segment p -> q cross a pillar (distance from its centre to the segment < radius) or a
-- block (the segment's parameter range clipped by both slabs is not empty)?
local function blocked(px, py, qx, qy)
  local dx, dy = qx - px, qy - py
  local len2 = dx * dx + dy * dy
  for _, c in ipairs(CIRCLES) do
    local t = len2 > 0 and math.max(0, math.min(1, ((c[1] - px) * dx + (c[2] - py) * dy) / len2)) or 0
    local ex, ey = px + t * dx - c[1], py + t * dy - c[2]
    if ex * ex + ey * ey < c[3] * c[3] then
      return true
    end
  end
  for _, b in ipairs(BLOCKS) do
    local t0, t1 = 0, 1
    for _, slab in ipairs({ { px, dx, b[1], b[3] }, { py, dy, b[2], b[4] } }) do
      local p0, d, lo, hi = slab[1], slab[2], slab[3], slab[4]
      if d == 0 then
        if p0 < lo or p0 > hi then t0 = 2 end
      else
        local a, c = (lo - p0) / d, (hi - p0) / d
        t0, t1 = math.max(t0, math.min(a, c)), math.min(t1, math.max(a, c))
      end
    end
    if t0 <= t1 then
      return true
    end
  end
  return false
end

local function one(species)
  return fb.each(species)()
end

local steps, guarded_steps = 0, 0

-- Is some bodyguard within GUARD_TOLERANCE of the segment VIP-threat (between its ends)?
local function guarded(vip, threat)
  local dx, dy = threat.x - vip.x, threat.y - vip.y
  local len2 = dx * dx + dy * dy
  for g in fb.each("guard") do
    local t = len2 > 0 and ((g.x - vip.x) * dx + (g.y - vip.y) * dy) / len2 or 0
    local ex, ey = vip.x + t * dx - g.x, vip.y + t * dy - g.y
    if t >= 0 and t <= 1 and ex * ex + ey * ey <= GUARD_TOLERANCE ^ 2 then
      return true
    end
  end
  return false
end

local function walker(over)
  local s = { body_length = 1.5, max_speed = 4, cruise_speed = 3, max_accel = 8, collide = true,
    vision = { radius = 6, fov = 360, separation = 2 } }
  for k, v in pairs(over) do
    s[k] = v
  end
  return s
end

local avoid = { "avoid_silhouette", params = { range = 6, gain = 10 } }
local apart = { "separation_gompert", params = { comfort = 3, danger = 1.8 } }

return {
  name = "Bodyguards: interpose and hide",
  world = { width = 160, height = 100, dt = 0.05, bounds = "clamp" },
  obstacles = obstacles,
  paths = { { name = "route", points = { { 10, 90 }, { 60, 88 }, { 110, 92 }, { 155, 88 } }, speed = 2 } },
  goals = { vip = { 10, 90 } },
  species = {
    walker({ name = "vip", count = 1, spawn = { around = { 10, 90, 0 } }, colour = { 255, 215, 0 },
      rules = { avoid, { "follow_path", params = { path = "route", bias = 0.1 } } } }),
    walker({ name = "threat", count = 1, spawn = { around = { 150, 10, 0 } }, colour = { 255, 60, 60 },
      cruise_speed = 2.5, rules = { avoid, { "seek_goal", params = { goal = "vip" } } } }),
    walker({ name = "guard", count = 3, spawn = { around = { 14, 84, 3 } }, colour = { 80, 140, 255 },
      max_speed = 5, max_accel = 12, accumulator = "prioritised",
      rules = { avoid, apart, { "interpose", params = { first = "vip", second = "threat" } } } }),
    walker({ name = "bystander", count = 24, spawn = { area = { 30, 10, 150, 90 } }, colour = { 200, 200, 200 },
      accumulator = "prioritised",
      rules = { avoid, apart, { "hide", params = { threat = "threat", sight = 80, range = 50 } } } }),
  },
  on_step = function()
    local vip, threat = one("vip"), one("threat")
    fb.set_goal("vip", vip.x, vip.y)
    steps = steps + 1
    guarded_steps = guarded_steps + (guarded(vip, threat) and 1 or 0)
  end,
  metrics = {
    { "guarded", function() return steps > 0 and guarded_steps / steps or 0 end },
    { "hidden", function()
        local threat, n, hid = one("threat"), 0, 0
        for a in fb.each("bystander") do
          n = n + 1
          hid = hid + (blocked(a.x, a.y, threat.x, threat.y) and 1 or 0)
        end
        return n > 0 and hid / n or 0
      end },
    { "threat_distance", function()
        local vip, threat = one("vip"), one("threat")
        return math.sqrt((vip.x - threat.x) ^ 2 + (vip.y - threat.y) ^ 2)
      end },
  },
}
