-- scripts/crowd_corridor.lua — two groups meet head on in a corridor and pass with ORCA (van den Berg et al. 2011).
-- Ten agents at each end of a corridor 12 units wide between two walls (convex polygons), each bound
-- for the point opposite its start through the corridor's centre: the groups meet in the middle,
-- every agent's path crossing the others'. ORCA (orca = true: RVO2's defaults of 10 neighbours
-- within 15, horizons of 10 s) lets them pass without touching each other or the walls; the
-- arrangement is point-symmetric, the case where reciprocal avoidance could deadlock. Where the
-- groups cross, ORCA's half-planes have no common velocity and its least-violation fallback lets
-- pairs overlap by up to 3% of their radii; the body pass (collide, 4 passes) takes that out.
-- Try: flockbox --headless --steps 600 --csv corridor.csv scripts/crowd_corridor.lua

local L, CX, CY = 120, 60, 20 -- corridor length, centre
local RADIUS = 0.5

local placed = {}
for _, x in ipairs({ 4, 7, L - 7, L - 4 }) do
  for y = CY - 4, CY + 4, 2 do
    placed[#placed + 1] = { x, y, 0, 0 }
  end
end

local function wall(y0, y1)
  return { polygon = { { 0, y0 }, { L, y0 }, { L, y1 }, { 0, y1 } } }
end

-- The closest pair of agents now and how many pairs overlap (20 agents: every pair).
local function pairs_now()
  local xs, ys, n = {}, {}, 0
  for a in fb.each("walker") do
    n = n + 1
    xs[n], ys[n] = a.x, a.y
  end
  local closest, overlaps = math.huge, 0
  for i = 1, n do
    for j = i + 1, n do
      local d = math.sqrt((xs[j] - xs[i]) ^ 2 + (ys[j] - ys[i]) ^ 2)
      closest = math.min(closest, d)
      overlaps = overlaps + (d < 2 * RADIUS and 1 or 0)
    end
  end
  return closest, overlaps
end

return {
  name = "ORCA: two groups pass in a corridor",
  world = { width = L, height = 2 * CY, dt = 0.25, bounds = "clamp", update = "semi_implicit",
    collision_iterations = 4 },
  obstacles = { wall(CY - 16, CY - 6), wall(CY + 6, CY + 16) },
  species = {
    {
      name = "walker", count = 0, agents = placed,
      body_length = 2 * RADIUS, max_speed = 2, max_accel = 80, collide = true,
      orca = true,
      vision = { radius = 4, fov = 360 },
      colour = { 255, 170, 60 },
      rules = { { "seek_antipode", params = { x = CX, y = CY, speed = 1.5, time = 0.25 } } },
    },
  },
  metrics = {
    { "arrived", function()
      local n = 0
      for a in fb.each("walker") do
        local dx, dy = a.goal_x - a.x, a.goal_y - a.y
        n = n + ((a.has_goal ~= 0 and dx * dx + dy * dy <= 1) and 1 or 0)
      end
      return n
    end },
    { "min_pair_distance", function() return (pairs_now()) end },
    { "overlaps", function() return select(2, pairs_now()) end },
    { "wall_clearance", function()
      local least = math.huge
      for a in fb.each("walker") do
        least = math.min(least, math.abs(a.y - (CY - 6)) - RADIUS, math.abs(a.y - (CY + 6)) - RADIUS)
      end
      return least
    end },
  },
}
