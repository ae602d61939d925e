-- tests/scenario_types_cover.lua — every key the shipped scenarios write is a field of fbScenario's classes in types/flockbox.lua.
-- Run from the repository root: lua5.4 tests/scenario_types_cover.lua scripts/*.lua
-- The classes are read back from the types file (---@class then its ---@field lines); a scenario is
-- loaded with a stand-in fb (its hooks never run) and its table walked: top, world, terrain,
-- species and their groups, rule slots, paths, flow fields and routes.
local classes, current = {}, nil
for line in io.lines("types/flockbox.lua") do
  local class = line:match("^%-%-%-@class ([%w_]+)")
  if class then
    current = {}
    classes[class] = current
  else
    local name, rest = line:match("^%-%-%-@field ([%w_]+)%??%s+(.*)")
    if current and name then
      current[name] = rest:match("^table<[^>]*>") or rest:match("^%S+") -- the type, before the help
    end
  end
end

local failures = 0
local function walk(value, class, where)
  local fields = classes[class]
  assert(fields, "no class " .. class .. " in types/flockbox.lua")
  for key, v in pairs(value) do
    if type(key) == "string" then
      local t = fields[key]
      if t == nil then
        failures = failures + 1
        print(string.format("FAIL %s.%s is not a field of %s", where, key, class))
      elseif type(v) == "table" then
        local inner = t:match("(fbScenario[%w_]*)") -- a class, in a list, a map or a union
        if inner and classes[inner] then
          local list = t:match("%[%]$") or t:match("^table<") -- a list or a map of them
          for k, item in pairs(list and v or { v }) do
            if type(item) == "table" then
              walk(item, inner, where .. "." .. key .. (list and ("[" .. tostring(k) .. "]") or ""))
            end
          end
        end
      end
    end
  end
end

local stub = setmetatable({}, { __index = function() return function() end end })
local checked = 0
for _, path in ipairs(arg) do
  local env = setmetatable({ fb = stub }, { __index = _G })
  local chunk = assert(loadfile(path, "t", env))
  local ok, scenario = pcall(chunk)
  if ok and type(scenario) == "table" then
    walk(scenario, "fbScenario", path)
    checked = checked + 1
  else
    print("skip " .. path .. ": " .. tostring(scenario))
  end
end
print(string.format("%d scenarios checked, %d keys not in the classes", checked, failures))
os.exit(failures == 0 and checked > 0 and 0 or 1)
