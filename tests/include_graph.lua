-- include_graph.lua — the source tree's shape: files in layer folders that include only their own
-- layer and the layers below, no include cycle between concepts, and the sim's members
-- (sim_internal.h) seen only by the sim's own sources. Run from the repository's root.
--
-- A concept is a .c/.h pair (sim_internal.h belongs to sim). Concept A depends on B when A.c or A.h
-- includes B.h; a cycle is a strongly connected set of two or more concepts (Tarjan's algorithm).
-- The layers, lowest first, are the engine's folders, then the view, then the program
-- (tools/layers.lua; docs/architecture.md says what each is): a file's folder is its layer, and an
-- include of a header from a higher layer is a backward edge, refused.

local SIM_OWN = { ["src/engine/sim/sim.c"] = true, ["src/engine/sim/api.c"] = true, ["src/engine/sim/state.c"] = true, ["src/engine/sim/sim_internal.h"] = true }

local LAYERS = {}
for i, layer in ipairs(dofile("tools/layers.lua")) do
  LAYERS[i] = layer.folder
end
-- The public headers, included as <flockbox/...>: the description structs under the whole engine,
-- the view's door with the view.
local PUBLIC = { ["flockbox/flockbox.h"] = "src/engine/base", ["flockbox/flockbox_view.h"] = "src/view" }

local rank, order = {}, {}
for i, folder in ipairs(LAYERS) do
  rank[folder] = i
  order[i] = folder:match("[^/]+$")
end

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

local function layer_of(path)
  return path:match("^(.*)/[^/]+$")
end

local edges, problems = {}, {}
local sources = files()

-- Where each header lies: every layer folder is on the include path, so a name must be unique.
local header_path = {}
for _, path in ipairs(sources) do
  local name = path:match("([^/]+%.h)$")
  if name then
    if header_path[name] then
      problems[#problems + 1] = path .. ": a second header named " .. name .. " (the other is " .. header_path[name] .. ")"
    end
    header_path[name] = path
  end
end

for _, path in ipairs(sources) do
  local from, layer = concept_of(path), layer_of(path)
  if not rank[layer] then
    problems[#problems + 1] = path .. ": in no layer folder (tools/layers.lua lists them)"
  end
  edges[from] = edges[from] or {}
  for line in io.lines(path) do
    local header = line:match('^#include "([^"]+)%.h"')
    local public = line:match("^#include <(flockbox/[^>]+%.h)>")
    if header then
      local to = concept_of(header .. ".h")
      if to ~= from then
        edges[from][to] = true
      end
      if header:match("sim_internal$") and not SIM_OWN[path] then
        problems[#problems + 1] = path .. ": includes sim_internal.h (the sim's members are the sim's own)"
      end
    end
    local target = header and header_path[header .. ".h"] and layer_of(header_path[header .. ".h"]) or PUBLIC[public]
    if rank[layer] and target and rank[target] > rank[layer] then
      problems[#problems + 1] = string.format("%s: includes %s of the higher layer %s, but %s is in %s (the layers, lowest first: %s)",
        path, header and header .. ".h" or public, target, path:match("[^/]+$"), layer, table.concat(order, " < "))
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

-- The longest include chain (the graph has no cycle now): a measure of the tree's depth.
local longest = {}
local function chain(v)
  if not longest[v] then
    local best = {}
    for w in pairs(edges[v] or {}) do
      local below = chain(w)
      if #below > #best or (#below == #best and below[1] < best[1]) then
        best = below
      end
    end
    longest[v] = { v, table.unpack(best) }
  end
  return longest[v]
end
local deepest = {}
for _, v in ipairs(names) do
  local c = chain(v)
  if #c > #deepest then
    deepest = c
  end
end
print(string.format("include graph: %d concepts in %d layers, no backward include, no cycle; sim_internal.h only in the sim's own sources",
  #names, #LAYERS))
print(string.format("longest include chain: %d concepts (%s)", #deepest, table.concat(deepest, " -> ")))
