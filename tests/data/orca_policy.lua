-- tests/data/orca_policy.lua — ORCA's policy options, four scenes in bands of one world (test_orca_policy.c): layers, priority, standing aside, patience.
-- Every agent seeks the point opposite its start across its band's centre (seek_antipode); one
-- placed at the centre has itself for goal and stands there. The bands lie 40 units apart, beyond
-- orca.distance (15): the scenes do not see each other. The test switches each option off with
-- --set to compare.
local L, R = 100, 0.5
local BAND = { layers = 20, priority = 60, standing = 100, patience = 140 }

local function species(name, band, placed, orca, colour, ghost)
  local cy = BAND[band]
  local agents = {}
  for k, p in ipairs(placed) do agents[k] = { p[1], cy + p[2], p[3], 0 } end
  return {
    name = name, count = 0, agents = agents,
    body_length = 2 * R, max_speed = 2, max_accel = 80, collide = not ghost,
    orca = orca, vision = { radius = 4, fov = 360 }, colour = colour,
    rules = { { "seek_antipode", params = { x = L / 2, y = cy, speed = 1.5, time = 0.25 } } },
  }
end

-- layers: two walkers head on along one line, on different layers (a file each would cross its
-- own mates: seek_antipode reverses a file's order). Layers say who avoids whom, not who collides:
-- their bodies are not solid (collide = false), else the body pass would stop them.
local east, west = { { 10, 0, 1.5 } }, { { L - 10, 0, -1.5 } }

-- priority: a walker of priority 1 crosses a file coming the other way slightly off its line.
local file = {}
for k = 0, 5 do file[#file + 1] = { L - 20 - 2.5 * k, 0.3 * (k % 2 == 0 and 1 or -1), -1.5 } end

-- patience: a corridor 1.6 wide (bodies 1), two walkers meet head on inside it.
local function wall(y0, y1)
  local cy = BAND.patience
  return { polygon = { { 30, cy + y0 }, { 70, cy + y0 }, { 70, cy + y1 }, { 30, cy + y1 } } }
end

return {
  name = "ORCA policy options",
  world = { width = L, height = 160, dt = 0.1, bounds = "clamp", update = "semi_implicit" },
  obstacles = { wall(-10, -0.8), wall(0.8, 10) },
  species = {
    species("east", "layers", east, { layers = 1, mask = 1 }, { 255, 170, 60 }, true),
    species("west", "layers", west, { layers = 2, mask = 2 }, { 90, 170, 255 }, true),
    species("vip", "priority", { { 20, 0, 1.5 } }, { priority = 1 }, { 255, 60, 60 }),
    species("crowd", "priority", file, { priority = 0 }, { 90, 170, 255 }),
    species("walker", "standing", { { 20, 0, 1.5 } }, { standing_speed = 0 }, { 255, 170, 60 }),
    species("guard", "standing", { { L / 2, 0, 0 } }, { standing_speed = 0.3 }, { 90, 170, 255 }),
    species("inbound", "patience", { { 20, 0, 0 } }, { patience = 3, standing_speed = 0.2 }, { 255, 170, 60 }),
    species("outbound", "patience", { { L - 20, 0, 0 } }, { patience = 3, standing_speed = 0.2 }, { 90, 170, 255 }),
  },
}
