-- behaviours/tests/every_rule_test.lua — what every shipped rule in behaviours/ owes: a test file, its header line, and finite steering in awkward places.
-- A new rule without behaviours/tests/NAME_test.lua fails here (ctest behaviour_tests), so no shipped
-- rule goes untested. The checks every rule shared in the old hand mock (tests/rules_test.lua) live
-- here too, in real worlds: the module loads with its defaults (the engine checks its params'
-- declarations and runs its validate), and it gives two finite numbers still and alone, on top of
-- flock-mates, nearly on top of one on a faint slope, on a steep slope, and inside an obstacle.
local t = require("flockbox.test")

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
local rules_folder = here .. "/.."

-- The rule modules of behaviours/: every NAME.lua directly in it (lib/ and tests/ are folders).
local function shipped_rules()
  local names = {}
  local pipe = assert(io.popen('ls "' .. rules_folder .. '"'))
  for entry in pipe:lines() do
    local name = entry:match("^(.+)%.lua$")
    if name then
      names[#names + 1] = name
    end
  end
  pipe:close()
  table.sort(names)
  return names
end

local RULES = shipped_rules()

t.test("behaviours/ holds the shipped rules", function()
  t.greater(#RULES, 40, "rules found in " .. rules_folder)
end)

t.test("every shipped rule has a test file beside it, in behaviours/tests/", function()
  for _, name in ipairs(RULES) do
    local f = io.open(here .. "/" .. name .. "_test.lua", "r")
    t.ok(f ~= nil, "behaviours/tests/" .. name .. "_test.lua for behaviours/" .. name .. ".lua")
    if f then
      f:close()
    end
  end
end)

t.test("every rule opens with its header line: -- behaviours/NAME.lua — the idea (its source).", function()
  for _, name in ipairs(RULES) do
    local f = assert(io.open(rules_folder .. "/" .. name .. ".lua", "r"))
    local first = f:read("l")
    f:close()
    t.ok(first ~= nil and first:find("^%-%- behaviours/" .. name .. "%.lua — .+%(.+%)%.$") ~= nil, name .. ": " .. tostring(first))
  end
end)

-- Everything a rule's defaults may name: the species, goals, paths, regions and flow fields.
local others = {}
for _, name in ipairs({ "predator", "prey", "player", "threat", "vip", "lead" }) do
  others[name] = {}
end
local CONTEXT = {
  others = others,
  goals = { goal = { 150, 150 }, lamp = { 60, 140 }, gate = { 140, 60 }, pasture = { 180, 180 } },
  paths = { { name = "route", points = { { 20, 20 }, { 180, 40 }, { 100, 180 } }, speed = 4 } },
  regions = { region = { { 10, 10 }, { 190, 10 }, { 190, 190 }, { 10, 190 } } },
  flow_fields = { flow = { fn = function(x, y)
    return (100 - y) / 100, (x - 100) / 100
  end, speed = 1 } },
}

local function with(d)
  for k, v in pairs(CONTEXT) do
    d[k] = d[k] or v
  end
  return d
end

local AWKWARD = {
  { "still and alone", {} },
  { "on top of two flock-mates", { agent = { 100, 100, 3, 0 }, mates = { { 0, 0, 1, 1 }, { 0, 0 } } } },
  { "nearly on top of one, on a faint slope", { agent = { 100, 100, 3, 0 }, mates = { { 1e-9, 0 } },
    terrain = { slope = { 1e-6, 0 } } } },
  { "on a steep slope", { agent = { 100, 100, -1, -1 }, mates = { { -2, -2, -1, -1 } }, terrain = { slope = { 3, 4 } } } },
  { "inside an obstacle", { agent = { 100, 100, 2, 0 }, obstacles = { { circle = { 100.5, 100, 2 } } } } },
}

local function finite(x)
  return type(x) == "number" and x == x and x ~= math.huge and x ~= -math.huge
end

-- Each rule in each place; every failure is listed, not only the first.
t.test("every rule gives finite steering in awkward places", function()
  local bad = {}
  for _, name in ipairs(RULES) do
    for _, case in ipairs(AWKWARD) do
      local d = with({ species = { collide = false } })
      for k, v in pairs(case[2]) do
        d[k] = v
      end
      local ok, ax, ay = pcall(t.steer, name, d)
      if not ok then
        bad[#bad + 1] = string.format("%s, %s: %s", name, case[1], tostring(ax):match("[^\n]*"))
      elseif not (finite(ax) and finite(ay)) then
        bad[#bad + 1] = string.format("%s, %s: (%s, %s)", name, case[1], tostring(ax), tostring(ay))
      end
    end
  end
  t.ok(#bad == 0, table.concat(bad, "\n  "))
end)

-- Each rule's module as plain Lua reads it (steering from its file, a stand-in fb whose functions
-- are never called while a module loads): what it declares, not what it does.
local function declarations(name)
  local library = assert(loadfile(rules_folder .. "/lib/steering.lua", "t", setmetatable({}, { __index = _G })))()
  local fb = setmetatable({ world = {} }, { __index = function()
    return function() end
  end })
  local env = setmetatable({ fb = fb, steering = library, require = function(module)
    return module == "steering" and library or {}
  end }, { __index = _G })
  return assert(loadfile(rules_folder .. "/" .. name .. ".lua", "t", env))()
end

-- The engine takes a declaration without help (and checks its bounds hold the default); the
-- shipped rules owe the panel and --rules a line for each (moved from tests/rules_test.lua).
t.test("every declared parameter of a shipped rule has its one-line help", function()
  local missing = {}
  for _, name in ipairs(RULES) do
    for param, v in pairs(declarations(name).params or {}) do
      if type(v) == "table" and type(v.help) ~= "string" then
        missing[#missing + 1] = name .. "." .. param
      end
    end
  end
  table.sort(missing)
  t.ok(#missing == 0, "no help: " .. table.concat(missing, ", "))
end)
