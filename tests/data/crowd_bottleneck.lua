-- tests/data/crowd_bottleneck.lua — 200 walkers leave a room through a corridor 2.4 wide (a bottleneck crowd test).
-- The room is 30 x 40 inside walls 2 thick; the exit, a corridor 8 long through the middle of its right
-- wall, is 2.4 wide, a little more than two bodies (radius 0.5). Every walker seeks one goal 27 units
-- beyond the corridor's end: those away from the middle head diagonally into the right wall and must
-- slide along it to the mouth (issue 37: before bodies slid, 145 got through and the rest stayed
-- pressed flat against the wall on both sides; now all 200 by step 800). Walkers past x = 70 leave
-- the scene. Column: through (walkers past the corridor's end).
-- With ORCA (--set walker.orca=true) 89 get through in 1 200 steps (any seed: nothing here is
-- random). ORCA's half-plane for a wall used to be one line through its nearest point, which at the
-- mouth's corners forbade passing beside them: 20 through (28 before bodies slid). Now each edge
-- facing a walker gets the line of its exact velocity obstacle, as RVO2 (orca.c). The rest is held
-- by ORCA with a crowd at rest (docs/steering-orca.md, "Obstacles"): a walker stopped at the mouth
-- gets the old line again from each corner, and neighbours it may close on at only gap / 10 s.
-- Try: flockbox --headless --steps 1200 --csv bottleneck.csv tests/data/crowd_bottleneck.lua

local X0, Y0, X1, Y1, WALL = 10, 10, 40, 50, 2 -- the room's inside and its walls' thickness
local MOUTH_Y, MOUTH_HALF, CORRIDOR = 30, 1.2, 8
local EXIT_X = X1 + CORRIDOR

local function box(x0, y0, x1, y1)
  return { polygon = { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } } }
end

local placed = {}
for col = 0, 9 do
  for row = 0, 19 do
    placed[#placed + 1] = { X0 + 4 + 2 * col, Y0 + 1 + 2 * row, 0, 0 }
  end
end

local left = 0 -- walkers removed once well outside

return {
  name = "A crowd leaves a room through a narrow corridor",
  world = { width = 80, height = 60, dt = 0.25, bounds = "clamp", update = "semi_implicit",
    collision_iterations = 4 },
  obstacles = {
    box(X0 - WALL, Y0 - WALL, X1 + WALL, Y0),                -- top
    box(X0 - WALL, Y1, X1 + WALL, Y1 + WALL),                -- bottom
    box(X0 - WALL, Y0, X0, Y1),                              -- left
    box(X1, Y0, EXIT_X, MOUTH_Y - MOUTH_HALF),               -- right and the corridor's upper side
    box(X1, MOUTH_Y + MOUTH_HALF, EXIT_X, Y1),               -- right and the corridor's lower side
  },
  goals = { out = { EXIT_X + 27, MOUTH_Y } },
  species = {
    {
      name = "walker", count = 0, agents = placed,
      body_length = 1, max_speed = 2, cruise_speed = 1.5, max_accel = 80, collide = true,
      orca = false,
      vision = { radius = 4, fov = 360 },
      colour = { 120, 200, 255 },
      rules = { { "seek_goal", params = { goal = "out", gain = 0.05 } } },
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
    { "through", function()
        local n = left
        for a in fb.each("walker") do
          n = n + (a.x > EXIT_X and 1 or 0)
        end
        return n
      end },
  },
}
