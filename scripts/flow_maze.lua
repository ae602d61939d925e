-- scripts/flow_maze.lua — walkers follow a flow field through a maze to its exit, kept inside its outline; guards patrol the pillars (Reynolds 1999: flow field following, containment, wall following).
-- The field is a route the engine computes (flow_fields.exit.route): the distance to the exit over a
-- 2-unit grid of the maze, walls and outline kept CLEAR away, by fast marching; the field's velocity
-- is its descent at SPEED (docs/steering-routes.md). The maze has no outer wall: its outline is a
-- region (with a notch), kept to by stay_inside and by the route (inside = "maze"). Walkers reaching
-- the exit leave.
-- Try: flockbox --headless --steps 1800 --csv maze.csv scripts/flow_maze.lua   (columns reached, outside, wall_gap)

local W, H, G, SPEED, CLEAR = 240, 160, 2, 6, 2.5 -- world, grid cell, field speed, clearance (units)
local EXIT, EXIT_R = { 210, 30 }, 10
local OUTLINE = { { 10, 10 }, { 230, 10 }, { 230, 150 }, { 170, 150 }, { 170, 128 }, { 140, 128 }, { 140, 150 }, { 10, 150 } }
local WALLS = { { 60, 4, 64, 112 }, { 120, 48, 124, 156 }, { 180, 4, 184, 112 }, { 28, 92, 42, 106 } } -- x0, y0, x1, y1
local HEX, CIRCLE = { 92, 80, 8 }, { 207, 85, 6 } -- x, y, radius: the other two pillars

local hexagon, obstacles = {}, { { circle = CIRCLE } }
for k = 0, 5 do hexagon[k + 1] = { HEX[1] + HEX[3] * math.cos(k * math.pi / 3), HEX[2] + HEX[3] * math.sin(k * math.pi / 3) } end
obstacles[2] = { polygon = hexagon }
for _, r in ipairs(WALLS) do
  table.insert(obstacles, { polygon = { { r[1], r[2] }, { r[3], r[2] }, { r[3], r[4] }, { r[1], r[4] } } })
end

local reached = 0
return {
  name = "Flow through a maze",
  world = { width = W, height = H, dt = 0.05, bounds = "clamp" },
  obstacles = obstacles,
  goals = { exit = EXIT },
  regions = { maze = OUTLINE },
  flow_fields = { exit = { route = { to = EXIT, inside = "maze", cell = G, clearance = CLEAR, speed = SPEED } } },
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
