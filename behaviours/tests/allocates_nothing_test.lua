-- behaviours/tests/allocates_nothing_test.lua — every shipped rule's steer allocates nothing in a busy world: no garbage, whatever the flock size (moved from tests/rules_test.lua's mock).
-- w:allocated(calls) runs the agent's rules `calls` times more within one step of a real world, the
-- Lua collector stopped, and gives the bytes its state grew by (rules.c, measure_allocation). Each
-- rule is run where it has work to do: flock-mates near and far, every species a default names
-- close by, an obstacle ahead, a slope, goals, a path, a region and a flow field; a few rules get
-- the parameters or the per-agent memory that send them down their busy path.
local t = require("flockbox.test")

local CALLS = 10000
-- Bytes over all the calls. The smallest Lua object takes 16 bytes or more, so one a call would be
-- 160 KB; what a measure shows below this grew once in the step (after the full collection the
-- measure starts with, some 64 to 900 bytes whatever the number of calls), not per call.
local LIMIT = 4096

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."

local function shipped_rules()
  local names = {}
  local pipe = assert(io.popen('ls "' .. here .. '/.."'))
  for entry in pipe:lines() do
    names[#names + 1] = entry:match("^(.+)%.lua$")
  end
  pipe:close()
  table.sort(names)
  return names
end

-- Around the agent at (100, 100) moving (5, 0): its own species close and farther, and one agent of
-- each species a rule's defaults name, all within sight.
local BUSY = {
  agent = { 100, 100, 5, 0 },
  species = { collide = false, vision = { radius = 30, fov = 270 } },
  mates = {
    { 1, 0.5, 4, 1 }, { 0, -1.5, 5, 0 }, { 5, 6, 3, 2 }, { -5, 0, 5, 1 }, { 8, -3, 4, 0 },
    { 8, 6, 0, 0, species = "predator" }, { 2, 3, 0, 0, species = "prey" }, { 10, 1, 0, 2, species = "player" },
    { -10, 4, 0, 0, species = "threat" }, { 3, -6, 1, 0, species = "vip" }, { 6, 2, 5, 0, species = "lead" },
    { 8, 6, 0, 0, species = "aqua" },
  },
  obstacles = { { circle = { 106, 101, 2 } }, { circle = { 110, 112, 1 } } },
  terrain = { slope = { 0.2, 0.1 } },
  goals = { goal = { 150, 150 }, lamp = { 60, 140 }, gate = { 140, 60 }, pasture = { 180, 180 } },
  paths = { { name = "route", points = { { 20, 20 }, { 180, 40 }, { 100, 180 } }, speed = 4 } },
  regions = { region = { { 10, 10 }, { 148, 10 }, { 148, 190 }, { 10, 190 } } },
  flow_fields = { flow = { fn = function(x, y)
    return (100 - y) / 100, (x - 100) / 100
  end, speed = 1 } },
}

-- What sends a rule down its busy path, when the world above does not.
local BUSIER = {
  tend_to_place = { params = { goal = "goal", max = 2 } },
  flee_place = { params = { x = 110, y = 100, radius = 20, max = 0.5 } },
  wind = { params = { x = 3, y = -2 } },
  chase = { params = { leaders_only = true }, fields = { leader = 1 } },
  avoid_flock = { params = { other = "aqua" } },
  formation = { params = { shape = "circle" }, fields = { follows = 3, lead_hx = 1 } },
  perch = { fields = { perch = 0, alt = 10 } },
  seek_antipode = { fields = { goal_x = 120, goal_y = 105, has_goal = 1 } },
  follow_route = { params = { x = 110, y = 100 } },
}

t.test("every shipped rule's steer allocates nothing (" .. CALLS .. " calls in a busy world)", function()
  local bad = {}
  for _, name in ipairs(shipped_rules()) do
    local d = {}
    for k, v in pairs(BUSY) do
      d[k] = v
    end
    local extra = BUSIER[name] or {}
    d.fields = extra.fields
    local ok, bytes = pcall(t.allocated, name, d, extra.params, CALLS)
    if not ok then
      bad[#bad + 1] = name .. ": " .. tostring(bytes):match("[^\n]*")
    elseif not (bytes < LIMIT) then
      bad[#bad + 1] = string.format("%s: %.0f bytes over %d calls", name, bytes, CALLS)
    end
  end
  t.ok(#bad == 0, table.concat(bad, "\n  "))
end)

-- The measure itself: a rule that allocates a table per call is caught.
t.test("a rule that allocates is caught", function()
  local bytes = t.allocated("steering_call", { agent = { 100, 100, 1, 0 } },
    { fn = "seek", with_agent = true, n = 2, x1 = 1, x2 = 2 }, 1000)
  t.greater(bytes, 1000 * 16, "table.pack's table per call")
end)
