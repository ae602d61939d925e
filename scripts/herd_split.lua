-- scripts/herd_split.lua — does a herd split round a hill, and regroup beyond it? (Gompert, Flocking Over 3D Terrain, Figure 13; AAAI 2005.)
-- A herd of 40 walks from the west at a round hill (top at (100, 100), 40 high, sigma 24) toward a
-- goal behind it, with Gompert's rules and terrain drag (K = 30 uphill, 6 downhill). Each animal
-- is recorded on the side where it first passes the hill's meridian x = 100: north (more than 15
-- units, 0.6 sigma, off the summit line), south, or over the top.
--   split      both north and south hold at least a fifth of the herd;
--   regrouped  when the herd's centre is 60 units (2.5 sigma) beyond the summit, at least 90% of
--              the herd is one group: animals linked through flock-mates less than 12 units apart
--              (twice the comfort radius of 6). Stragglers still on the slopes are not in it.
-- The outcome is decided there: "together" (no split), "regrouped" or "apart"; or "timeout" if the
-- centre has not got there after 120 s. The run goes on 30 s more and ends with that outcome, the
-- groups counted again (largest_group_later): whether a herd apart at 60 units regroups later.
-- The goal is 85 units beyond the summit (goal); goal_150, goal_300 and goal_1000 lie further on
-- the same line, for --set herd.seek_goal.goal=goal_1000 (the last outside the world: seek_goal
-- needs only its direction). A herd walking on toward a far goal for the 30 s needs the world
-- longer: --set world.width=600 --set terrain.png=terrains/single_hill_long.png, the same hill with
-- flat ground further east (experiments/figure13_goal.lua). A sweep over seeds gives the fractions
-- (experiments/figure13.lua).
local MERIDIAN, OFF_LINE, BEYOND, LINK, TIME_LIMIT, LATER = 100, 15, 60, 12, 120, 30
local side = {}                     -- agent id -> "north", "south" or "over"; false until it crosses
local north, south, over = 0, 0, 0
local groups, largest = 0, 0        -- at 60 units beyond: how many groups, and the largest one's share
local later_groups, later_largest = 0, 0  -- the same 30 s later (0 until then, as the two above)
local outcome, decided_at = nil, nil  -- decided at 60 units beyond (or the time limit), and when

local function herd_centre()  -- fb.centre adds up in C what a walk of fb.agents("herd") would
  return fb.centre("herd")
end

local function record_crossings()
  for a in fb.each("herd") do
    if side[a.id] == nil then
      side[a.id] = false -- every key made at the first walk: a crossing later allocates nothing
    end
    if not side[a.id] and a.x > MERIDIAN then
      local off = a.y - 100
      local s = off < -OFF_LINE and "north" or off > OFF_LINE and "south" or "over"
      side[a.id] = s
      if s == "north" then north = north + 1 elseif s == "south" then south = south + 1 else over = over + 1 end
    end
  end
end

-- Groups of the herd linked by flock-mates closer than LINK (single linkage, a flood fill):
-- how many, and the largest one's share of the herd.
local function count_groups()
  local pos = {}
  for a in fb.each("herd") do pos[#pos + 1] = { a.x, a.y } end
  local seen, count, biggest = {}, 0, 0
  for start = 1, #pos do
    if not seen[start] then
      count = count + 1
      local stack, size = { start }, 0
      seen[start] = true
      while #stack > 0 do
        local i = table.remove(stack)
        size = size + 1
        for j = 1, #pos do
          if not seen[j] and (pos[i][1] - pos[j][1]) ^ 2 + (pos[i][2] - pos[j][2]) ^ 2 < LINK * LINK then
            seen[j] = true
            stack[#stack + 1] = j
          end
        end
      end
      biggest = math.max(biggest, size)
    end
  end
  return count, biggest / #pos
end

local function split(n) return north >= n / 5 and south >= n / 5 end

return {
  name = "Herd splitting round a hill (Figure 13)",
  world = { width = 200, height = 200, dt = 0.05, bounds = "clamp",
    update = "euler" }, -- Gompert eq. 1: moved by the velocity it had
  terrain = { png = "terrains/single_hill.png", height = 40 },
  goals = { goal = { 185, 100 }, goal_150 = { 250, 100 }, goal_300 = { 400, 100 }, goal_1000 = { 1100, 100 } },
  species = {
    {
      name = "herd", count = 40,
      spawn = { around = { 25, 100, 12 }, speed = { 0, 1 }, heading = 0 },
      body_length = 2, max_speed = 8, cruise_speed = 5.6, max_accel = 16,
      vision = { radius = 20, fov = 270, separation = 6 },
      accumulator = "prioritised",
      colour = { 200, 140, 90 },
      rules = {
        { "separation_gompert", params = { comfort = 6, danger = 3 } },
        { "alignment_gompert" },
        { "cohesion_gompert" },
        { "seek_goal" },
        { "terrain_drag", drag = true, params = { uphill = 30, downhill = 6 } },
      },
    },
  },
  on_step = function(step)
    local t = step * fb.world.dt
    if outcome == nil then
      record_crossings()
      local cx, _, n = herd_centre()
      if cx >= MERIDIAN + BEYOND then
        groups, largest = count_groups()
        outcome = not split(n) and "together" or largest >= 0.9 and "regrouped" or "apart"
        decided_at = t
      elseif t >= TIME_LIMIT then
        fb.stop("timeout")
      end
    elseif t >= decided_at + LATER - 1e-9 then
      later_groups, later_largest = count_groups()
      fb.stop(outcome)
    end
  end,
  metrics = {
    { "north", function() return north end },
    { "south", function() return south end },
    { "over", function() return over end },
    { "split", function() return split(fb.count("herd")) and 1 or 0 end },
    { "groups", function() return groups end },
    { "largest_group", function() return largest end },
    { "decided_at", function() return decided_at or 0 end },  -- s (0 until then); the run ends 30 s later
    { "groups_later", function() return later_groups end },
    { "largest_group_later", function() return later_largest end },
  },
}
