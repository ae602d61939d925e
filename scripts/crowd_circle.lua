-- scripts/crowd_circle.lua — RVO2's Circle example with ORCA (van den Berg, Guy, Lin & Manocha 2011): 250 agents on a circle cross to their antipodes.
-- As RVO2's examples/Circle.cpp sets it: agents on a circle of radius 200, each bound for the point
-- opposite, radius 1.5, max speed 2, preferred velocity the unit vector toward the goal (the offset
-- itself within one unit), 10 neighbours within 15, time horizons 10 s, dt 0.25. RVO2 takes 3 441
-- steps for all to arrive. The crowd's species runs ORCA (orca = {...}), which turns the preferred
-- velocity from seek_antipode into the nearest velocity that collides with nobody for 10 s.
-- One addition to RVO2's: keep_right = 15, an agent that must give way aims 15 degrees right of its
-- preferred velocity, so that the crowd meeting at the centre turns into a roundabout instead of a
-- jam where pairs overlap (docs/steering-orca.md). The paper's: --set crowd.orca.keep_right=0
-- Without ORCA, seek plus a separation push (weight 0 here, so that the preferred velocity is RVO2's):
--   flockbox --headless --steps 4000 --set crowd.orca=false --set crowd.separation_gompert.weight=1 scripts/crowd_circle.lua
-- Try: flockbox --headless --steps 3500 --csv circle.csv scripts/crowd_circle.lua

local N, R, C = 250, 200, 250 -- agents, circle radius, the centre (C, C) of a 2C x 2C world
local RADIUS = 1.5

local placed = {}
for i = 0, N - 1 do
  local angle = i * 2 * math.pi / N
  placed[#placed + 1] = { C + R * math.cos(angle), C + R * math.sin(angle), 0, 0 }
end

-- Distances between every pair closer than `reach`, by a sweep along x: the closest pair and how
-- many pairs overlap (closer than the sum of the radii).
local xs, ys = {}, {}
local function pairs_now()
  local n = 0
  for a in fb.each("crowd") do
    n = n + 1
    xs[n], ys[n] = a.x, a.y
  end
  local order = {}
  for k = 1, n do
    order[k] = k
  end
  table.sort(order, function(p, q) return xs[p] < xs[q] or (xs[p] == xs[q] and p < q) end)
  local closest, overlaps = math.huge, 0
  for i = 1, n do
    local p = order[i]
    for j = i + 1, n do
      local q = order[j]
      local dx = xs[q] - xs[p]
      if dx >= math.max(closest, 2 * RADIUS) then
        break
      end
      local d = math.sqrt(dx * dx + (ys[q] - ys[p]) ^ 2)
      closest = math.min(closest, d)
      overlaps = overlaps + (d < 2 * RADIUS and 1 or 0)
    end
  end
  return closest, overlaps
end

local function arrived()
  local n = 0
  for a in fb.each("crowd") do
    local dx, dy = a.goal_x - a.x, a.goal_y - a.y
    n = n + ((a.has_goal ~= 0 and dx * dx + dy * dy <= RADIUS * RADIUS) and 1 or 0)
  end
  return n
end

return {
  name = "ORCA: a circle of 250 crossing (RVO2's Circle)",
  world = { width = 2 * C, height = 2 * C, dt = 0.25, bounds = "clamp",
    update = "semi_implicit" }, -- agents move by the velocity ORCA chose
  species = {
    {
      name = "crowd", count = 0, agents = placed,
      body_length = 2 * RADIUS, max_speed = 2,
      max_accel = 80, -- ORCA may change the velocity by 2 max_speed in a step: unclipped down to dt = 0.05
      collide = false, -- ORCA alone keeps them apart (docs/steering-orca.md: the body pass changes nothing here)
      orca = { time_horizon = 10, obstacle_horizon = 10, neighbours = 10, distance = 15, keep_right = 15 },
      vision = { radius = 6, fov = 360, separation = 4.5 },
      colour = { 90, 180, 255 },
      rules = {
        { "seek_antipode", params = { x = C, y = C, speed = 1, time = 0.25 } },
        { "separation_gompert", weight = 0, params = { comfort = 4.5, danger = 3.2 } }, -- for ORCA off
      },
    },
  },
  metrics = {
    { "arrived", arrived },
    { "min_pair_distance", function() return (pairs_now()) end },
    { "overlaps", function() return select(2, pairs_now()) end },
  },
}
