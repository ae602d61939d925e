-- scripts/flow_maze.lua — walkers follow a flow field through a maze to its exit, kept inside its outline; guards patrol the pillars (Reynolds 1999: flow field following, containment, wall following).
-- The field is made here, when the scenario loads: a distance to the exit over a 2-unit grid of the
-- maze (Dial's bucketed breadth-first search, steps of 2 straight and 3 diagonal), and the field's
-- velocity at a point is its negative gradient scaled to SPEED. The maze has no outer wall: its
-- outline is a region (with a notch), kept to by stay_inside. Walkers reaching the exit leave.
-- Try: flockbox --headless --steps 1800 --csv maze.csv scripts/flow_maze.lua   (columns reached, outside, wall_gap)

local W, H, G, SPEED, CLEAR = 240, 160, 2, 6, 2.5 -- world, grid cell, field speed, clearance (units)
local EXIT, EXIT_R = { 210, 30 }, 10
local OUTLINE = { { 10, 10 }, { 230, 10 }, { 230, 150 }, { 170, 150 }, { 170, 128 }, { 140, 128 }, { 140, 150 }, { 10, 150 } }
local WALLS = { { 60, 4, 64, 112 }, { 120, 48, 124, 156 }, { 180, 4, 184, 112 }, { 28, 92, 42, 106 } } -- x0, y0, x1, y1
local HEX, CIRCLE = { 92, 80, 8 }, { 207, 85, 6 } -- x, y, radius: the other two pillars

local function inside(x, y, poly) -- the even-odd rule
  local n, odd = #poly, false
  for k = 1, n do
    local a, b = poly[k], poly[k % n + 1]
    if (a[2] > y) ~= (b[2] > y) and x < a[1] + (y - a[2]) * (b[1] - a[1]) / (b[2] - a[2]) then odd = not odd end
  end
  return odd
end

local hexagon, obstacles = {}, { { circle = CIRCLE } }
for k = 0, 5 do hexagon[k + 1] = { HEX[1] + HEX[3] * math.cos(k * math.pi / 3), HEX[2] + HEX[3] * math.sin(k * math.pi / 3) } end
obstacles[2] = { polygon = hexagon }
for _, r in ipairs(WALLS) do
  table.insert(obstacles, { polygon = { { r[1], r[2] }, { r[3], r[2] }, { r[3], r[4] }, { r[1], r[4] } } })
end

local function blocked(x, y) -- within CLEAR of a wall or a pillar, or of the outline's outside
  for _, r in ipairs(WALLS) do
    if x > r[1] - CLEAR and x < r[3] + CLEAR and y > r[2] - CLEAR and y < r[4] + CLEAR then return true end
  end
  if math.sqrt((x - HEX[1]) ^ 2 + (y - HEX[2]) ^ 2) < HEX[3] + CLEAR then return true end
  if math.sqrt((x - CIRCLE[1]) ^ 2 + (y - CIRCLE[2]) ^ 2) < CIRCLE[3] + CLEAR then return true end
  for _, d in ipairs({ { 0, 0 }, { CLEAR, 0 }, { -CLEAR, 0 }, { 0, CLEAR }, { 0, -CLEAR } }) do
    if not inside(x + d[1], y + d[2], OUTLINE) then return true end
  end
  return false
end

local COLS, ROWS, dist = W // G, H // G, {}
local function cell(i, j) return j * COLS + i end
local function free(i, j) return i >= 0 and j >= 0 and i < COLS and j < ROWS and not blocked((i + 0.5) * G, (j + 0.5) * G) end
local open = {}
for j = 0, ROWS - 1 do for i = 0, COLS - 1 do open[cell(i, j)] = free(i, j) end end

do -- Dial's algorithm: buckets of equal distance, taken in order, from the exit outward
  local buckets, at = { [0] = { cell(EXIT[1] // G, EXIT[2] // G) } }, 0
  dist[buckets[0][1]] = 0
  while buckets[at] or next(buckets) do
    for _, c in ipairs(buckets[at] or {}) do
      local i, j = c % COLS, c // COLS
      for di = -1, 1 do for dj = -1, 1 do
        local n = cell(i + di, j + dj)
        local ok = (di ~= 0 or dj ~= 0) and i + di >= 0 and i + di < COLS and open[n]
        ok = ok and open[cell(i + di, j)] and open[cell(i, j + dj)] -- no cutting corners
        local d = at + ((di == 0 or dj == 0) and 2 or 3)
        if ok and (dist[n] == nil or d < dist[n]) then
          dist[n] = d
          buckets[d] = buckets[d] or {}
          table.insert(buckets[d], n)
        end
      end end
    end
    buckets[at], at = nil, at + 1
  end
end

-- Downhill at a free cell: the negative gradient of the distance (central differences over free
-- neighbours; a missing one counts as this cell), a unit vector.
local function descent(i, j)
  local d = dist[cell(i, j)]
  local function at(di, dj)
    local n = cell(i + di, j + dj)
    return (i + di >= 0 and i + di < COLS and open[n] and dist[n]) or d
  end
  local gx, gy = at(1, 0) - at(-1, 0), at(0, 1) - at(0, -1)
  local len = math.sqrt(gx * gx + gy * gy)
  if d == 0 or len == 0 then return 0, 0 end
  return -gx / len, -gy / len
end

local source = {} -- a blocked cell near free space: the nearest free cell (3 rings out)
for _ = 1, 3 do
  local found = {}
  for c = 0, COLS * ROWS - 1 do
    local i, j, best = c % COLS, c // COLS, math.huge
    for di = -1, 1 do for dj = -1, 1 do
      local n = cell(i + di, j + dj)
      local s = open[n] and dist[n] and n or source[n]
      local d = s and ((s % COLS - i) ^ 2 + (s // COLS - j) ^ 2)
      if not open[c] and not source[c] and i + di >= 0 and i + di < COLS and s and d < best then found[c], best = s, d end
    end end
  end
  for c, s in pairs(found) do source[c] = s end
end

-- The field: downhill in free space at SPEED; in a wall's clearance, out toward the nearest free cell
-- and downhill from there, so an agent pressed to a wall is led off it, never into it.
local function downhill(x, y)
  local i, j = math.min(COLS - 1, math.max(0, math.floor(x / G))), math.min(ROWS - 1, math.max(0, math.floor(y / G)))
  local c = cell(i, j)
  if open[c] and dist[c] then
    local ux, uy = descent(i, j)
    return SPEED * ux, SPEED * uy
  end
  local s = source[c]
  if s == nil then return 0, 0 end
  local ox, oy = s % COLS - i, s // COLS - j
  local len = math.sqrt(ox * ox + oy * oy)
  local fx, fy = descent(s % COLS, s // COLS)
  local vx, vy = ox / len + fx, oy / len + fy
  len = math.sqrt(vx * vx + vy * vy)
  if len == 0 then return 0, 0 end
  return SPEED * vx / len, SPEED * vy / len
end

local reached = 0
return {
  name = "Flow through a maze",
  world = { width = W, height = H, dt = 0.05, bounds = "clamp" },
  obstacles = obstacles,
  goals = { exit = EXIT },
  regions = { maze = OUTLINE },
  flow_fields = { exit = { fn = downhill, cell = G } },
  species = {
    {
      name = "walker", count = 120, spawn = { area = { 14, 14, 56, 60 }, speed = { 0, 2 } },
      body_length = 1.5, max_speed = 8, cruise_speed = 6, max_accel = 24,
      vision = { radius = 6, fov = 300, separation = 3, sees = { "walker", "guard" } },
      accumulator = "prioritised", colour = { 120, 200, 255 },
      rules = {
        { "stay_inside", params = { region = "maze", margin = 3, predict = 0.5 } },
        { "separation_gompert", params = { comfort = 3, danger = 1.6 } },
        { "follow_flow", params = { field = "exit", predict = 0.3, gain = 3 } },
      },
    },
    {
      name = "guard", count = 0, body_length = 1.5, max_speed = 6, cruise_speed = 4, max_accel = 24,
      agents = { { 35, 87, 4, 0 }, { 35, 111, -4, 0 }, { 92, 69, 4, 0 }, { 92, 91, -4, 0 }, { 207, 76, 4, 0 }, { 207, 94, -4, 0 } },
      accumulator = "prioritised", colour = { 255, 170, 60 },
      rules = {
        { "stay_inside", params = { region = "maze", margin = 3, predict = 0.5 } },
        { "follow_wall", params = { offset = 3, side = "right", speed = 4, gain = 6, range = 10 } },
      },
    },
  },
  on_step = function()
    for a in fb.each("walker") do
      if (a.x - EXIT[1]) ^ 2 + (a.y - EXIT[2]) ^ 2 < EXIT_R ^ 2 then
        fb.remove(a.id)
        reached = reached + 1
      end
    end
  end,
  metrics = {
    { "reached", function() return reached end },
    { "outside", function()
        local n = 0
        for a in fb.each() do n = n + (select(6, fb.region("maze", a.x, a.y)) and 0 or 1) end
        return n
      end },
    { "wall_gap", function() return fb.mean("wall_gap", "guard") or 0 end },
  },
}
