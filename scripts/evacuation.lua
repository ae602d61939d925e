-- scripts/evacuation.lua — evacuating an office floor read from a PNG plan: 150 people route to the nearest of three exits and pass each other with ORCA (issue 34; the pedestrian preset of scripts/rimea/).
-- The walls are plans/office.png's dark pixels, 0.2 m a pixel (obstacles = { { png = ..., cell =
-- 0.2 } }: merged into rectangles, tools/make_plans.c draws it): 40 m by 26 m, a corridor along the
-- middle, three rooms each side opening onto it by doors 1.2 m wide, exits at both ends of the
-- corridor and one in the north wall. Everyone follows one route field whose goals are the three
-- exits: the distance it descends is to the nearest exit round the walls (fast marching, docs/
-- steering-routes.md). The pedestrian preset: bodies of 0.22 m, 1.34 m/s, ORCA with the walls.
-- A person is out when through an exit. CSV: `left`, `evacuated_at` (s, once all 150 are out);
-- for each exit (west, east, north) the people through it so far and its flow (`_flow`, persons/s
-- between its first and last passage); the flow through each room's door into the corridor
-- (door_nw_flow, door_n_flow, door_ne_flow, door_sw_flow, door_s_flow, door_se_flow).
-- Try: build/flockbox --headless --steps 1200 --csv evac.csv scripts/evacuation.lua
local ped = require("rimea.pedestrian")
local W, H, CELL = 40, 26, 0.2
local CORRIDOR = { 11.1, 14.9 } -- the corridor's walls' middles, y (m)
local EXITS = { west = { 0.2, 13 }, east = { W - 0.2, 13 }, north = { 20, 0.2 } }
local DOORS = { "door_nw", "door_n", "door_ne", "door_sw", "door_s", "door_se" }

-- 25 people a room on a lattice 2.2 m by 1.8 m, clear of its walls.
local people = {}
for room = 0, 5 do
  local x0, y0 = 1.8 + (room % 3) * W / 3, room < 3 and 1.8 or 16.6
  for i = 0, 4 do
    for j = 0, 4 do
      people[#people + 1] = { x0 + 2.2 * i, y0 + 1.8 * j, 0, 0 }
    end
  end
end

local count, first, last, side = {}, {}, {}, {}
local left, evacuated_at = 0, 0
local function passed(name, t)
  count[name] = (count[name] or 0) + 1
  first[name] = first[name] or t
  last[name] = t
end
local function flow(name)
  local n = count[name] or 0
  return n > 1 and (n - 1) / (last[name] - first[name]) or 0
end

-- Which part of the floor y is in: a room to the north (1), the corridor (2), a room to the south (3).
local function part(y) return y < CORRIDOR[1] and 1 or (y > CORRIDOR[2] and 3 or 2) end

local metrics = {
  { "left", function() return left end },
  { "evacuated_at", function() return evacuated_at end },
}
for _, name in ipairs({ "west", "east", "north" }) do
  metrics[#metrics + 1] = { name, function() return count[name] or 0 end }
  metrics[#metrics + 1] = { name .. "_flow", function() return flow(name) end }
end
for _, name in ipairs(DOORS) do -- a scenario has at most 16 metrics: the doors' flows only
  metrics[#metrics + 1] = { name .. "_flow", function() return flow(name) end }
end

return {
  name = "Evacuating an office floor",
  world = ped.world(W, H),
  obstacles = { { png = "plans/office.png", cell = CELL } },
  flow_fields = { exit = { route = { to = { EXITS.west, EXITS.east, EXITS.north }, cell = 0.1, speed = ped.free_speed } } },
  species = { ped.species({ name = "person", agents = people, colour = { 240, 190, 90 } }) },
  on_step = function()
    local _, t = fb.time()
    for a in fb.each("person") do
      local now = part(a.y)
      if side[a.id] and side[a.id] ~= 2 and now == 2 then -- from a room into the corridor
        passed(DOORS[(side[a.id] - 1) / 2 * 3 + math.min(2, a.x * 3 // W) + 1], t)
      end
      side[a.id] = now
      local out = a.x < 0.3 and "west" or a.x > W - 0.3 and "east" or a.y < 0.3 and "north"
      if out then
        passed(out, t)
        fb.remove(a.id)
        left = left + 1
        if left == #people then evacuated_at = t end
      end
    end
  end,
  metrics = metrics,
}
