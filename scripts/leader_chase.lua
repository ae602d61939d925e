-- scripts/leader_chase.lua — Bourg & Seemann's Follow the Leader demo (AI for Game Developers, ch. 4).
-- Two unit types flock, each only with its own type: blue regular units and faster magenta
-- interceptors. A unit with none of its type in front of it (narrow view) becomes leader and
-- turns red; regular leaders chase the green player, interceptor leaders intercept it, and the
-- rest follow their leaders. The player (9 units/s) outruns the regular units (8) but not the
-- interceptors (12): one flock tails the player while the other cuts across its path, the pincer.
-- An autopilot drives the player round a figure of eight. In the window the arrow keys take over
-- at once, and the autopilot resumes 3 s after they are let go (A switches it off altogether).
-- Try: flockbox --headless --steps 2000 --csv chase.csv scripts/leader_chase.lua

local W, H = 200, 150

-- Bourg's flocking (wide view), the leader check, and avoiding the rocks; `pursue` is chase or intercept.
local function unit_rules(pursue)
  return {
    -- own_type: each type elects its own leaders. With Bourg's count (the rule's default: every
    -- type but the player, as his loop from j = 1) a regular unit with an interceptor ahead does not
    -- lead: the faster interceptors cut in ahead of the regular flock, which is then leaderless in
    -- 30% of the samples of tests/test_leaders.c (interceptors 6%; both led in 65%, against 98%
    -- with own_type), and the interceptors fall behind the player (mean bearing -0.43 against -0.15):
    -- the pincer comes apart. Counting the player too, 39% and 9%.
    --   flockbox --headless --steps 3000 --every 10 --csv l.csv --set regular.leader.own_type=false \
    --     --set interceptor.leader.own_type=false scripts/leader_chase.lua
    { "leader", params = { front = 1, range = 8, own_type = true } },
    { "avoid_feeler", weight = 2, params = { factor = 5 } },
    { "separation_bourg", params = { factor = 2 } },
    { "alignment_bourg", weight = 0.5 },
    { "cohesion_bourg", weight = 0.5 },
    { pursue, params = { target = "player", leaders_only = true } },
    { "soft_bounds", params = { margin = 15, push = 0.025 } },
  }
end

local autopilot = true

-- Cosine of the angle between the player's heading and the direction to each unit of a species,
-- averaged: +1 all ahead of the player, -1 all behind it.
local function bearing(species)
  local player = fb.each("player")()
  local px, py, hx, hy = player.x, player.y, player.vx / player.speed, player.vy / player.speed
  local sum, n = 0, 0
  for a in fb.each(species) do
    local dx, dy = a.x - px, a.y - py
    local d = math.sqrt(dx * dx + dy * dy)
    if d > 0 then
      sum, n = sum + (dx * hx + dy * hy) / d, n + 1
    end
  end
  return n > 0 and sum / n or 0
end

local function leaders(species)
  local n = 0
  for a in fb.each(species) do
    if a.leader ~= 0 then
      n = n + 1
    end
  end
  return n
end

return {
  name = "Follow the leader: chase and intercept",
  world = { width = W, height = H, dt = 0.05, bounds = "clamp",
    update = "euler" }, -- the seed gives no update; the engine's default
  obstacles = {
    { circle = { 60, 50, 5 } }, { circle = { 145, 100, 6 } }, { circle = { 110, 35, 4 } },
  },
  species = {
    {
      name = "player", count = 1, player = true,
      spawn = { around = { 100, 75, 0 }, speed = 6, heading = 0 },
      body_length = 3, max_speed = 9, cruise_speed = 9, max_accel = 18,
      vision = { radius = 5 },
      rules = { { "player_control" }, { "avoid_feeler", weight = 2 } },
    },
    {
      name = "regular", count = 12,
      spawn = { area = { 10, 10, 50, 50 }, speed = 8, heading = 0 },
      body_length = 2.5, max_speed = 8, min_speed = 6, max_accel = 24,
      vision = { radius = 25, fov = 270, separation = 5 },
      colour = { 70, 110, 255 },
      rules = unit_rules("chase"),
    },
    {
      name = "interceptor", count = 8,
      spawn = { area = { 150, 100, 190, 140 }, speed = 10, heading = 180 },
      body_length = 2.5, max_speed = 12, min_speed = 9, max_accel = 30,
      vision = { radius = 25, fov = 270, separation = 5 },
      colour = { 255, 0, 255 },
      rules = unit_rules("intercept"),
    },
  },
  -- The autopilot: the player heads flat out for a point running round a figure of eight a little
  -- faster than it can, so it never quite gets there.
  on_step = function(step)
    local t = step * fb.world.dt
    local cx, cy = W / 2 + 70 * math.sin(0.09 * t), H / 2 + 45 * math.sin(0.18 * t)
    if not autopilot then
      return
    end
    local player = fb.each("player")()
    local dx, dy = cx - player.x, cy - player.y
    local d = math.max(math.sqrt(dx * dx + dy * dy), 1e-9)
    fb.set_input(dx / d, dy / d)
  end,
  on_key = function(name)
    if name == "A" then
      autopilot = not autopilot
      fb.set_input(0, 0)
    end
  end,
  metrics = {
    { "regular_leaders", function() return leaders("regular") end },
    { "interceptor_leaders", function() return leaders("interceptor") end },
    { "regular_bearing", function() return bearing("regular") end },
    { "interceptor_bearing", function() return bearing("interceptor") end },
  },
}
