-- scripts/rts_move.lua — RTS move orders: three squads route round buildings and through the gaps between them to points they are sent to, with ORCA (issue 34, paths for single agents).
-- A town of ten buildings (rectangles) with lanes and gaps between them. Each squad follows its
-- own order, a named goal: follow_route asks a:route for each unit's own shortest path round the
-- buildings (A* on a grid of where a body fits, pulled taut; docs/steering-paths.md), and ORCA
-- keeps the units off each other and the walls on the way. Headless, a scripted course gives the
-- orders: at 0 s each squad is sent across town, at 90 s to another corner. (In the window the
-- orders are the same: the course is the scenario's.) CSV: arrived (units within 3 of their
-- order), stuck (units slower than 0.05 and farther than 3 from it), wall_clearance (the least
-- gap between a unit and a building, negative inside one).
-- Try: flockbox --headless --steps 1800 --csv rts.csv scripts/rts_move.lua

local W, H, R = 120, 80, 0.5
local BUILDINGS = {
  { 20, 10, 34, 30 }, { 40, 8, 52, 26 }, { 60, 12, 78, 24 }, { 86, 8, 104, 28 },
  { 18, 40, 30, 62 }, { 36, 36, 56, 48 }, { 36, 54, 56, 70 }, { 64, 34, 76, 66 },
  { 84, 40, 100, 52 }, { 84, 58, 108, 72 },
}
-- The course: the time (s) each set of orders is given, and where each squad is sent.
local COURSE = {
  { 0, { red = { 112, 74 }, blue = { 110, 32 }, green = { 60, 30 } } },
  { 90, { red = { 8, 74 }, blue = { 10, 4 }, green = { 116, 4 } } },
}

local obstacles = {}
for k, b in ipairs(BUILDINGS) do
  obstacles[k] = { polygon = { { b[1], b[2] }, { b[3], b[2] }, { b[3], b[4] }, { b[1], b[4] } } }
end

local function squad(name, x, y, colour)
  return {
    name = name, count = 8, spawn = { around = { x, y, 3 }, speed = 0 }, colour = colour,
    body_length = 2 * R, max_speed = 2, max_accel = 40, orca = { keep_right = 10 },
    vision = { radius = 4, fov = 360 },
    rules = { { "follow_route", params = { goal = name, speed = 1.5 } } },
  }
end

local function distance_to_building(x, y, b)
  local dx = math.max(b[1] - x, 0, x - b[3])
  local dy = math.max(b[2] - y, 0, y - b[4])
  if dx == 0 and dy == 0 then -- inside: minus the depth
    return -math.min(x - b[1], b[3] - x, y - b[2], b[4] - y)
  end
  return math.sqrt(dx * dx + dy * dy)
end

local SQUADS = { "red", "blue", "green" }
local function count(test)
  local n = 0
  for _, s in ipairs(SQUADS) do
    local gx, gy = fb.goal(s)
    for a in fb.each(s) do
      n = n + (test(a, math.sqrt((a.x - gx) ^ 2 + (a.y - gy) ^ 2)) and 1 or 0)
    end
  end
  return n
end

local order = 0
return {
  name = "RTS move orders: squads route round buildings",
  world = { width = W, height = H, dt = 0.1, bounds = "clamp", update = "semi_implicit", collision_iterations = 4 },
  obstacles = obstacles,
  goals = { red = { 8, 74 }, blue = { 8, 34 }, green = { 8, 4 } },
  species = {
    squad("red", 8, 74, { 230, 70, 60 }),
    squad("blue", 8, 34, { 80, 140, 255 }),
    squad("green", 8, 4, { 90, 200, 90 }),
  },
  on_step = function()
    local _, t = fb.time()
    local next_order = COURSE[order + 1]
    if next_order and t >= next_order[1] then
      order = order + 1
      for s, p in pairs(next_order[2]) do
        fb.set_goal(s, p[1], p[2])
      end
    end
  end,
  metrics = {
    { "arrived", function() return count(function(_, d) return d <= 3 end) end },
    { "stuck", function() return count(function(a, d) return d > 3 and a.speed < 0.05 end) end },
    { "wall_clearance", function()
      local least = math.huge
      for _, s in ipairs(SQUADS) do
        for a in fb.each(s) do
          for _, b in ipairs(BUILDINGS) do
            least = math.min(least, distance_to_building(a.x, a.y, b) - R)
          end
        end
      end
      return least
    end },
  },
}
