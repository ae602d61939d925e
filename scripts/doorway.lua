-- scripts/doorway.lua — Reynolds' doorway: a crowd leaves a room through a door one body wide, and
-- queues instead of piling up (Reynolds, "Steering Behaviors For Autonomous Characters", 1999, queuing demo).
-- 36 walkers with solid bodies (radius 0.5) head for the door (1.6 wide: more than one body, less
-- than two), then for a point outside (gate_pass); walls are avoided (avoid_silhouette) and
-- neighbours kept apart (separation_gompert); queue brakes behind a slower walker in front.
-- Those well outside leave the scene. Columns: exited (walkers through the door) and overlaps (pairs
-- of bodies closer than the sum of their radii, less 5 % of it: pressed together harder than the
-- collision pass undoes in one step).
-- Try: flockbox --headless --steps 1800 --csv door.csv scripts/doorway.lua  (and --set walker.queue.weight=0)

local X0, Y0, X1, Y1, WALL = 10, 10, 50, 50, 2 -- the room's inside and its walls' thickness
local DOOR_Y, DOOR_HALF = 30, 0.8
local BODY = 1

local function box(x0, y0, x1, y1)
  return { polygon = { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } } }
end

local left = 0 -- walkers removed once well outside

-- Pairs of bodies closer than (1 - tolerance) times the sum of their radii (BODY), counted in C
-- by a sweep (fb.close_pairs), the count a Lua loop over every pair gives.
local function overlapping(tolerance)
  return fb.close_pairs(BODY * (1 - tolerance), "walker")
end

return {
  name = "Queueing at a doorway",
  world = { width = 80, height = 60, dt = 0.05, bounds = "clamp" },
  obstacles = {
    box(X0 - WALL, Y0 - WALL, X1 + WALL, Y0),                       -- top
    box(X0 - WALL, Y1, X1 + WALL, Y1 + WALL),                       -- bottom
    box(X0 - WALL, Y0, X0, Y1),                                     -- left
    box(X1, Y0, X1 + WALL, DOOR_Y - DOOR_HALF),                     -- right, above the door
    box(X1, DOOR_Y + DOOR_HALF, X1 + WALL, Y1),                     -- right, below the door
  },
  goals = { door = { X1 + WALL / 2, DOOR_Y }, outside = { 75, DOOR_Y } },
  species = {
    {
      name = "walker", count = 36,
      spawn = { area = { X0 + 2, Y0 + 2, X1 - 10, Y1 - 2 }, speed = { 0, 0.5 } },
      body_length = BODY, max_speed = 2, cruise_speed = 1.5, max_accel = 4, collide = true,
      vision = { radius = 4, fov = 360, separation = 1 },
      colour = { 120, 200, 255 },
      accumulator = "prioritised",
      rules = {
        { "avoid_silhouette", params = { range = 3, gain = 10 } },
        { "queue", params = { range = 2.5, cone = 30 } },
        { "separation_gompert", params = { comfort = 1.4, danger = 1.05 } },
        { "gate_pass", params = { gate = "door", beyond = "outside", reach = 1.5, max = 4 } },
      },
    },
  },
  on_step = function()
    for a in fb.each("walker") do
      if a.x > 70 then
        fb.remove(a.id)
        left = left + 1
      end
    end
  end,
  metrics = {
    { "exited", function()
        local n = left
        for a in fb.each("walker") do
          n = n + (a.x > X1 + WALL and 1 or 0)
        end
        return n
      end },
    { "overlaps", function() return overlapping(0.05) end },
  },
}
