-- scripts/rimea/test06_corner.lua — RiMEA test 6 (guideline 4.1.1, Annex 1): 20 pedestrians walk a corridor 2 m wide round a corner to the left; none may cross the wall.
-- Each leg is 12 m to the corner and 2 m wide: the first runs east along y = 1-3, the second north
-- along x = 13-15. Every wall is an obstacle (ORCA avoids obstacles, not the world's edges): the
-- inside of the L one rectangle, the outside two strips. The 20 start spread over the first 6 m and
-- follow a route field to the end of the second leg, where they leave. CSV: `left` (pedestrians
-- out), `wall_gap` (the least distance now between a body's edge and a wall, negative when one
-- overlaps it), `inside_wall` (centres inside a wall now).
-- Try: build/flockbox --headless --steps 400 --csv t6.csv scripts/rimea/test06_corner.lua
local ped = require("pedestrian")
local O, L, B, N = 1, 14, 2, 20 -- wall thickness, outer leg length, width, pedestrians
local X1, Y0, Y1 = O + L - B, O, O + B -- the corner's inside at (X1, Y1); the legs' outer walls at y = Y0, x = O + L
local function box(x0, y0, x1, y1) return { x0, y0, x1, y1 } end
local WALLS = { box(0, Y1, X1, O + L), box(0, 0, O + L + O, Y0), box(O + L, Y0, O + L + O, O + L) }

-- The distance from (x, y) to a box, negative inside it.
local function to_box(x, y, b)
  local dx, dy = math.max(b[1] - x, 0, x - b[3]), math.max(b[2] - y, 0, y - b[4])
  if dx == 0 and dy == 0 then return -math.min(x - b[1], b[3] - x, y - b[2], b[4] - y) end
  return math.sqrt(dx * dx + dy * dy)
end
local function to_wall(x, y)
  local d = math.huge
  for _, b in ipairs(WALLS) do d = math.min(d, to_box(x, y, b)) end
  return d
end

local obstacles = {}
for k, b in ipairs(WALLS) do
  obstacles[k] = { polygon = { { b[1], b[2] }, { b[3], b[2] }, { b[3], b[4] }, { b[1], b[4] } } }
end

local left = 0
return {
  name = "RiMEA test 6: a crowd turns a corner",
  world = ped.world(O + L + O, O + L),
  obstacles = obstacles,
  regions = { out = { { X1, O + L - 0.5 }, { O + L, O + L - 0.5 }, { O + L, O + L }, { X1, O + L } } },
  flow_fields = { exit = ped.route("out") },
  species = { ped.species({ name = "walker", count = N, spawn = { area = { O + 0.4, Y0 + 0.3, O + 6, Y1 - 0.3 }, speed = 0 } }) },
  on_step = function()
    for a in fb.each("walker") do
      if a.y > O + L - 0.8 then
        fb.remove(a.id)
        left = left + 1
      end
    end
  end,
  metrics = {
    { "left", function() return left end },
    { "wall_gap", function()
        local gap = math.huge
        for a in fb.each("walker") do gap = math.min(gap, to_wall(a.x, a.y)) end
        if gap == math.huge then return 0 end -- nobody left
        return gap - ped.radius
      end },
    { "inside_wall", function()
        local n = 0
        for a in fb.each("walker") do n = n + (to_wall(a.x, a.y) < 0 and 1 or 0) end
        return n
      end },
  },
}
