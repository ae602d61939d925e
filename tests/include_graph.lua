-- include_graph.lua — the source tree's shape: no include cycle between concepts, and the sim's
-- members (sim_internal.h) seen only by the sim's own sources. Run from the repository's root.
--
-- A concept is a .c/.h pair (sim_internal.h belongs to sim). Concept A depends on B when A.c or A.h
-- includes B.h; a cycle is a strongly connected set of two or more concepts (Tarjan's algorithm).

local SIM_OWN = { ["src/engine/sim.c"] = true, ["src/engine/api.c"] = true, ["src/engine/state.c"] = true, ["src/engine/sim_internal.h"] = true }

local function files()
  local list = {}
  local pipe = assert(io.popen("find src -name '*.c' -o -name '*.h' | sort"))
  for path in pipe:lines() do
    list[#list + 1] = path
  end
  pipe:close()
  return list
end

local function concept_of(path)
  local name = path:match("([^/]+)%.[ch]$")
  return name == "sim_internal" and "sim" or name
end

local edges, problems = {}, {}
for _, path in ipairs(files()) do
  local from = concept_of(path)
  edges[from] = edges[from] or {}
  for line in io.lines(path) do
    local header = line:match('^#include "([^"]+)%.h"')
    if header then
      local to = concept_of(header .. ".h")
      if to ~= from then
        edges[from][to] = true
      end
      if header:match("sim_internal$") and not SIM_OWN[path] then
        problems[#problems + 1] = path .. ": includes sim_internal.h (the sim's members are the sim's own)"
      end
    end
  end
end

-- Tarjan's strongly connected components over the concept graph.
local index, low, on_stack, stack, counter = {}, {}, {}, {}, 0
local function connect(v)
  counter = counter + 1
  index[v], low[v] = counter, counter
  stack[#stack + 1], on_stack[v] = v, true
  for w in pairs(edges[v] or {}) do
    if not index[w] then
      connect(w)
      low[v] = math.min(low[v], low[w])
    elseif on_stack[w] then
      low[v] = math.min(low[v], index[w])
    end
  end
  if low[v] == index[v] then
    local component = {}
    repeat
      local w = table.remove(stack)
      on_stack[w] = nil
      component[#component + 1] = w
    until w == v
    if #component > 1 then
      table.sort(component)
      problems[#problems + 1] = "include cycle between " .. table.concat(component, ", ")
    end
  end
end

local names = {}
for v in pairs(edges) do
  names[#names + 1] = v
end
table.sort(names)  -- the same report on every run
for _, v in ipairs(names) do
  if not index[v] then
    connect(v)
  end
end

if #problems > 0 then
  io.stderr:write(table.concat(problems, "\n"), "\n")
  os.exit(1)
end
print(string.format("include graph: %d concepts, no cycle; sim_internal.h only in the sim's own sources", #names))
