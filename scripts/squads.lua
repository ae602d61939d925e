-- scripts/squads.lua — three squads in formation round a wooded racetrack: a wedge and a line abreast behind given leaders, a column under a leader it elects (Reynolds 1999, offset pursuit; Bourg ch. 4).
-- Each leader follows the object of its own copy of one closed path, a third of a lap apart, round
-- two bends and through two stands of trees. Members take slots in their leader's frame by offset
-- pursuit (behaviours/formation.lua), ranked along the formation's axis so that none crosses
-- another; trees are avoided with feelers before the formation is kept (prioritised), and the
-- squad re-forms behind them. At 70 s the column's leader is removed: with Bourg's election the
-- unit now in front takes over and the column closes up behind it.
-- Metrics: slot_error (mean distance of members to their slots, all squads, and per squad),
-- crossings (times two members of a squad swapped order along the axis, from 15 s on, cumulative),
-- column_leaders.
-- Try: flockbox --headless --steps 2400 --csv squads.csv scripts/squads.lua

-- A stadium: straights at y = 55 and 205 from x = 110 to 290, joined by half circles of radius 75.
local LOOP = {}
for _, x in ipairs({ 110, 170, 230 }) do LOOP[#LOOP + 1] = { x, 55 } end
for k = 0, 5 do LOOP[#LOOP + 1] = { 290 + 75 * math.sin(k * math.pi / 6), 130 - 75 * math.cos(k * math.pi / 6) } end
for _, x in ipairs({ 290, 230, 170 }) do LOOP[#LOOP + 1] = { x, 205 } end
for k = 0, 5 do LOOP[#LOOP + 1] = { 110 - 75 * math.sin(k * math.pi / 6), 130 + 75 * math.cos(k * math.pi / 6) } end
local SPEED, REMOVE_AT = 5, 70 -- path speed, units/s; when the column's leader is removed, s
local FORMED = 15 -- s: crossings are counted from then on (members sort themselves out while forming)

-- Two stands of trees on the straights, within a squad's width of the path.
local trees = {}
for _, t in ipairs({ { 185, 47, 5 }, { 207, 64, 5.5 }, { 229, 45, 5 }, { 252, 61, 5 },  -- top straight
  { 272, 214, 5.5 }, { 250, 197, 5 }, { 227, 213, 5 }, { 205, 196, 5.5 } }) do    -- bottom straight
  trees[#trees + 1] = { circle = t }
end

local COLOURS = { wedge = { 255, 170, 60 }, line = { 90, 200, 255 }, column = { 150, 255, 120 } }

local function route(name, start)
  return { name = name, points = LOOP, closed = true, speed = SPEED, start = start }
end

-- A leader: pursues its path object closely (offset pursuit at no offset), steering round trees first.
local function leader(name, path, at, colour)
  return {
    name = name, count = 1, spawn = { around = { at[1], at[2], 0 }, speed = SPEED, heading = at[3] },
    body_length = 2, max_speed = 6, max_accel = 12, vision = { radius = 10 }, colour = colour,
    accumulator = "prioritised",
    rules = { { "avoid_feeler", params = { factor = 4 } }, { "pursue_path", params = { path = path } } },
  }
end

-- A squad of members: see each other all round, avoid trees, then hold their slots.
local function squad(name, count, area, heading, formation, accumulator, extra)
  local strict = accumulator == "strict"
  local rules = { { "avoid_feeler", preempt = strict, params = { factor = 3 } },
    { "formation", preempt = strict, params = formation } }
  for _, r in ipairs(extra or {}) do
    table.insert(rules, r.at, r.rule)
  end
  return {
    name = name, count = count, spawn = { area = area, speed = { 2, 4 }, heading = heading },
    body_length = 2, max_speed = 10, max_accel = 20, accumulator = accumulator,
    vision = { radius = 60, fov = 360, separation = 3 }, colour = COLOURS[name], rules = rules,
  }
end

-- ---- metrics: slots, crossings, leaders ------------------------------------------------------------

local MEMBERS = { "wedge", "line", "column" }
local previous = {} -- id -> slot (rank + 1) after the last step
local crossings = 0

-- Pairs of one squad whose order along the axis flipped since the last step.
local ids, slots = {}, {} -- kept between calls: a steady step allocates nothing

local function count_flips(species)
  if select(2, fb.time()) < FORMED then -- nothing counts yet: no need to compare
    return
  end
  local n = 0
  for a in fb.each(species) do
    if a.slot > 0 and (previous[a.id] or 0) > 0 then
      n = n + 1
      ids[n], slots[n] = a.id, a.slot
    end
  end
  for i = 1, n do
    for j = i + 1, n do
      if (previous[ids[i]] < previous[ids[j]]) ~= (slots[i] < slots[j]) then
        crossings = crossings + 1
      end
    end
  end
end

-- Overwritten in place: only members present are read back, so a removed one's entry is harmless.
local function remember_slots()
  for _, species in ipairs(MEMBERS) do
    for a in fb.each(species) do
      previous[a.id] = a.slot
    end
  end
end

-- Mean distance to the slot over the members holding one (of a species, else of all squads).
local function slot_error(only)
  local sum, n = 0, 0
  for _, species in ipairs(MEMBERS) do
    if only == nil or only == species then
      for a in fb.each(species) do
        if a.slot > 0 then
          sum, n = sum + a.slot_dist, n + 1
        end
      end
    end
  end
  return n > 0 and sum / n or 0
end

local function column_leaders()
  local n = 0
  for a in fb.each("column") do
    n = n + (a.follows == a.id and 1 or 0)
  end
  return n
end

return {
  name = "Squads in formation",
  world = { width = 400, height = 260, dt = 0.05, bounds = "clamp" },
  obstacles = trees,
  paths = { route("lap_a", 0), route("lap_b", 1 / 3), route("lap_c", 2 / 3) },
  species = {
    leader("wedge_lead", "lap_a", { 110, 55, 0 }, { 255, 60, 60 }),
    squad("wedge", 11, { 70, 35, 105, 75 }, 0, { shape = "wedge", spacing = 5, leader = "wedge_lead" }, "prioritised"),
    leader("line_lead", "lap_b", { 362, 109, 74 }, { 255, 60, 60 }),
    squad("line", 10, { 335, 55, 385, 95 }, 74, { shape = "line", spacing = 5, leader = "line_lead" }, "prioritised"),
    -- The column elects its leader (Bourg): the leader rule flags the unit with nobody in front,
    -- which the others follow; it leads by following the path. "strict": a feeler that touches a
    -- tree, else the formation, decide alone; only the leader, whose formation rule is silent,
    -- follows the path.
    squad("column", 10, { 158, 199, 200, 211 }, 180, { shape = "column", spacing = 5 }, "strict", {
      { at = 1, rule = { "leader", params = { front = 1, range = 4, own_type = true } } },
      { at = 4, rule = { "pursue_path", params = { path = "lap_c" } } },
    }),
  },
  on_step = function(step)
    for _, species in ipairs(MEMBERS) do
      count_flips(species)
    end
    remember_slots()
    if step == math.floor(REMOVE_AT / fb.world.dt + 0.5) then
      for a in fb.each("column") do
        if a.follows == a.id then
          fb.remove(a.id)
        end
      end
    end
  end,
  metrics = {
    { "slot_error", function() return slot_error() end },
    { "slot_error_wedge", function() return slot_error("wedge") end },
    { "slot_error_line", function() return slot_error("line") end },
    { "slot_error_column", function() return slot_error("column") end },
    { "crossings", function() return crossings end },
    { "column_leaders", function() return column_leaders() end },
  },
}
