-- tests/data/route_wall.lua — walkers route round a wall to a point behind it, and through its one gap (test_route.c).
-- A world 60 x 40 with solid edges; a wall across it at x = 30 from y = 0 to 34, so the way from the
-- left half to the right goes round its end (a gap 6 wide at the top). Eight walkers start at the
-- left and follow_route to (45, 10), behind the wall: a straight seek would press them into it.
local placed = {}
for k = 0, 7 do placed[#placed + 1] = { 8 + 2 * (k % 4), 6 + 3 * (k // 4), 0, 0 } end

return {
  name = "Route round a wall",
  world = { width = 60, height = 40, dt = 0.1, bounds = "clamp", update = "semi_implicit" },
  obstacles = { { polygon = { { 29, 0 }, { 31, 0 }, { 31, 34 }, { 29, 34 } } } },
  species = {
    {
      name = "walker", count = 0, agents = placed,
      body_length = 1, max_speed = 2, max_accel = 40, orca = true,
      vision = { radius = 4, fov = 360 }, colour = { 255, 170, 60 },
      rules = { { "follow_route", params = { x = 45, y = 10, speed = 1.5 } } },
    },
  },
}
