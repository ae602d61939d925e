-- lib/flockbox/test.lua — the harness of `flockbox test`: tiny real worlds, a rule's steering, assertions that say where.
--
-- A test file:
--   local t = require("flockbox.test")
--   t.test("cohesion pulls towards the mates' centre", function()
--     local ax, ay = t.steer("cohesion", { agent = { 100, 100, 1, 0 }, mates = { { 4, 0 }, { 4, 4 } } })
--     t.towards(ax, ay, 4, 2)
--   end)
-- Every world is a real one: the harness writes a scenario from the description, the engine loads
-- it (rules from the test's own folder first, then the shipped behaviours/), and the rule runs with
-- the engine's agent view `a`, its methods and its fb functions. A test in a folder named tests/
-- finds the rules of the folder above it too. docs/writing-rules.md, "Testing
-- your rules", lists what a description may hold.
local core = require("flockbox.core")

local t = {}

-- ---- the tests of one file --------------------------------------------------------------------

local file, folder, tests = "?", ".", {}

-- Called by flockbox test before the file runs.
function t.begin(path)
  file, tests = path, {}
  folder = path:match("^(.*)/[^/]*$") or "."
end

-- Declares a test: fn runs later, after the whole file has loaded, in declaration order.
function t.test(name, fn)
  assert(type(name) == "string" and type(fn) == "function", "t.test(name, function() ... end)")
  tests[#tests + 1] = { name = name, fn = fn, line = debug.getinfo(2, "l").currentline }
end

-- The line of the test file the stack is at: the assertion's caller, however deep the helpers.
local function where()
  for level = 2, 60 do
    local info = debug.getinfo(level, "Sl")
    if info == nil then
      break
    end
    if info.source == "@" .. file and info.currentline > 0 then
      return file .. ":" .. info.currentline
    end
  end
  return nil
end

local Failure = {} -- the metatable of an assertion's failure, told apart from any other error

local function fail(message, what)
  error(setmetatable({ where = where(), message = (what and (what .. ": ") or "") .. message }, Failure), 0)
end

-- Runs the declared tests, one line each; returns how many passed and failed.
function t.run()
  local passed, failed = 0, 0
  for _, test in ipairs(tests) do
    local ok, err = xpcall(test.fn, function(e)
      if getmetatable(e) == Failure then
        return e
      end
      -- an error in the test or the rule: where the test file was, and the message as raised
      return { where = where(), message = tostring(e) }
    end)
    if ok then
      passed = passed + 1
      print(string.format("ok   %s:%d: %s", file, test.line, test.name))
    else
      failed = failed + 1
      print(string.format("FAIL %s: %s: %s", err.where or (file .. ":" .. test.line), test.name, err.message))
    end
    collectgarbage() -- close the test's worlds now, not whenever the collector gets round to them
  end
  return passed, failed
end

-- ---- assertions -------------------------------------------------------------------------------
-- Each fails with the test file's line and the values; `what`, last and optional, names the check.

local function show(v)
  if math.type(v) == "float" then
    return string.format("%.6g", v)
  end
  return tostring(v)
end

function t.ok(cond, what)
  if not cond then
    fail("expected true, got " .. show(cond), what)
  end
end

function t.equal(got, want, what)
  if got ~= want then
    fail(string.format("got %s, want %s", show(got), show(want)), what)
  end
end

-- |got - want| <= tol (default 1e-9).
function t.near(got, want, tol, what)
  tol = tol or 1e-9
  if type(got) ~= "number" or not (math.abs(got - want) <= tol) then
    fail(string.format("got %s, want %s ± %s", show(got), show(want), show(tol)), what)
  end
end

-- Both components near: a vector (ax, ay) against (wx, wy).
function t.near2(ax, ay, wx, wy, tol, what)
  tol = tol or 1e-9
  if type(ax) ~= "number" or type(ay) ~= "number" or not (math.abs(ax - wx) <= tol and math.abs(ay - wy) <= tol) then
    fail(string.format("got (%s, %s), want (%s, %s) ± %s", show(ax), show(ay), show(wx), show(wy), show(tol)), what)
  end
end

function t.less(a, b, what)
  if not (a < b) then
    fail(string.format("%s is not less than %s", show(a), show(b)), what)
  end
end

function t.greater(a, b, what)
  if not (a > b) then
    fail(string.format("%s is not greater than %s", show(a), show(b)), what)
  end
end

function t.length(x, y)
  return math.sqrt(x * x + y * y)
end

-- The angle between two vectors, degrees (0 .. 180); nil when either is zero.
function t.angle(ax, ay, bx, by)
  local la, lb = t.length(ax, ay), t.length(bx, by)
  if la == 0 or lb == 0 then
    return nil
  end
  local c = (ax * bx + ay * by) / (la * lb)
  return math.deg(math.acos(math.max(-1, math.min(1, c))))
end

-- (ax, ay) is non-zero and points along (dx, dy) within max_degrees (default 1).
function t.towards(ax, ay, dx, dy, max_degrees, what)
  max_degrees = max_degrees or 1
  local angle = t.angle(ax, ay, dx, dy)
  if angle == nil or not (angle <= max_degrees) then
    fail(string.format("(%s, %s) does not point towards (%s, %s): %s degrees off, at most %s", show(ax), show(ay),
      show(dx), show(dy), angle and string.format("%.3g", angle) or "no direction", show(max_degrees)), what)
  end
end

-- (ax, ay) is non-zero and points against (dx, dy) within max_degrees (default 1).
function t.away(ax, ay, dx, dy, max_degrees, what)
  t.towards(ax, ay, -dx, -dy, max_degrees, what)
end

-- (ax, ay) is (0, 0) within tol (default 1e-9).
function t.zero(ax, ay, tol, what)
  t.near2(ax, ay, 0, 0, tol, what)
end

-- fn raises an error whose message holds pattern (plain text).
function t.fails(fn, text, what)
  local ok, err = pcall(fn)
  if ok then
    fail("expected an error, none was raised", what)
  elseif text and not tostring(err):find(text, 1, true) then
    fail(string.format("the error %q does not say %q", tostring(err), text), what)
  end
end

-- ---- a scenario written from a description ------------------------------------------------------

-- Lua text for a value the scenario file can hold: numbers, strings, booleans and tables of them.
local function lua_text(v, path)
  local kind = type(v)
  if kind == "number" then
    if v ~= v then
      return "(0/0)"
    elseif v == math.huge or v == -math.huge then
      return v > 0 and "math.huge" or "-math.huge"
    end
    return math.type(v) == "integer" and tostring(v) or string.format("%.17g", v)
  elseif kind == "string" then
    return string.format("%q", v)
  elseif kind == "boolean" then
    return tostring(v)
  elseif kind == "table" then
    local parts, n = {}, #v
    for k = 1, n do
      parts[#parts + 1] = lua_text(v[k], path .. "[" .. k .. "]")
    end
    local keys = {}
    for k in pairs(v) do
      if not (math.type(k) == "integer" and k >= 1 and k <= n) then
        keys[#keys + 1] = k
      end
    end
    table.sort(keys, function(a, b)
      return tostring(a) < tostring(b)
    end)
    for _, k in ipairs(keys) do
      local key = type(k) == "string" and k:match("^[%a_][%w_]*$") and k or ("[" .. lua_text(k, path) .. "]")
      parts[#parts + 1] = key .. " = " .. lua_text(v[k], path .. "." .. tostring(k))
    end
    return "{ " .. table.concat(parts, ", ") .. " }"
  end
  error(string.format("%s: a %s cannot go into a test's world (numbers, strings, booleans and tables only)", path, kind), 0)
end

local function merged(base, over)
  local out = {}
  for k, v in pairs(base or {}) do
    out[k] = v
  end
  for k, v in pairs(over or {}) do
    out[k] = v
  end
  return out
end

-- A position or velocity given as { x, y, vx, vy } or { x = .., y = .., vx = .., vy = .. }.
local function body(o, what)
  o = o or {}
  local x, y, vx, vy = o.x or o[1], o.y or o[2], o.vx or o[3] or 0, o.vy or o[4] or 0
  if type(x) ~= "number" or type(y) ~= "number" or type(vx) ~= "number" or type(vy) ~= "number" then
    error(what .. ": give { x, y [, vx, vy] } as numbers", 3)
  end
  return x, y, vx, vy
end

-- The world's keys a description passes through to the scenario as they are.
local PASSED = { "obstacles", "goals", "paths", "regions", "flow_fields", "view" }

local preset_fields -- defined below: per-agent fields set before the first step
local terrain_png -- defined below: a height function sampled into a 16-bit PNG
local flow_png -- and a velocity function into the RGB PNG of a flow field

--[[
The scenario a description makes: one species, `me` (or species.name), holding the agent under
test (placed by hand, the first agent, so its id is 1) and its same-species mates (placed at their
offsets from it); a species of its own for each other species a mate names, with no rules unless
others = { name = { species fields } } gives some. The agent's species runs `rule` (with `params`)
or `rules`; its species fields come from `species`. Rule folders: the test file's own, then the
description's `behaviours`, then the shipped behaviours/.
]]
local function scenario_text(d)
  local world = merged({ width = 200, height = 200 }, d.world)
  local ax, ay, avx, avy = body(d.agent or { world.width / 2, world.height / 2 }, "agent")
  local me = merged({ name = "me", count = 0 }, d.species)
  if d.rule then
    me.rules = { { d.rule, params = d.params } }
  elseif d.rules then
    me.rules = d.rules
  end
  me.rules = me.rules or {}
  me.agents = { { ax, ay, avx, avy } }
  local species, by_name = { me }, { [me.name] = me }
  for k, m in ipairs(d.mates or {}) do
    local dx, dy, vx, vy = body(m, "mates[" .. k .. "]")
    local name = m.species or me.name
    local s = by_name[name]
    if s == nil then
      s = merged({ name = name, count = 0, rules = {} }, (d.others or {})[name])
      s.agents = {}
      by_name[name], species[#species + 1] = s, s
    end
    s.agents[#s.agents + 1] = { ax + dx, ay + dy, vx, vy }
  end
  for name, fields in pairs(d.others or {}) do -- species with no mates placed: spawned as they say
    if by_name[name] == nil then
      local s = merged({ name = name, count = 0, rules = {} }, fields)
      by_name[name], species[#species + 1] = s, s
    end
  end
  local scenario = { world = world, species = species }
  for _, key in ipairs(PASSED) do
    scenario[key] = d[key]
  end
  if d.flow_fields then -- { fn = function(x, y) return vx, vy end, speed = S } becomes a PNG
    scenario.flow_fields = {}
    for name, f in pairs(d.flow_fields) do
      scenario.flow_fields[name] = type(f.fn) == "function" and flow_png(f, world) or f
    end
  end
  local folders = { core.realpath(folder) or folder }
  if folder:match("tests$") then -- behaviours/tests/x_test.lua tests the rules of behaviours/
    folders[2] = core.realpath(folder .. "/..")
  end
  for _, f in ipairs(d.behaviours or {}) do
    folders[#folders + 1] = core.realpath(f) or f
  end
  scenario.behaviours = folders
  if type(d.terrain) == "function" or (type(d.terrain) == "table" and d.terrain.slope) then
    scenario.terrain = terrain_png(d.terrain, world)
  else
    scenario.terrain = d.terrain
  end
  return "return " .. lua_text(scenario, "world")
end

-- ---- worlds -----------------------------------------------------------------------------------

local World = {}
World.__index = World

local temporary = {} -- files to remove when the program ends (a PNG must outlive the load)
setmetatable(temporary, {
  __gc = function(list)
    for _, path in ipairs(list) do
      os.remove(path)
    end
  end,
})

-- One field set before the first step, as if the agent's rules had left it so; a name no rule of
-- the world declares fails the test where the description was written.
local function preset(w, id, name, value, what)
  if type(value) == "boolean" then
    value = value and 1 or 0 -- a field holds numbers; a:set(name, true) stores 1 as well
  end
  if type(name) ~= "string" or type(value) ~= "number" then
    error(what .. ": give fields = { name = number }", 4)
  end
  if not w.sim:set_field(id, name, value) then
    error(string.format("%s: no field '%s' (the world's rules declare none of that name)", what, name), 4)
  end
end

--[[
Preset per-agent fields: `fields` for the agent under test, a mate's own `fields` for it. A mate's
id is found by where it was placed (its species and position), since ids follow the species'
order in the scenario; w.mate_ids[k] keeps it for the test.
]]
preset_fields = function(w, d)
  for name, value in pairs(d.fields or {}) do
    preset(w, 1, name, value, "fields")
  end
  w.mate_ids = {}
  local all = w.sim:agents()
  local ax, ay = body(d.agent or { 0, 0 }, "agent")
  if d.agent == nil then
    local world = merged({ width = 200, height = 200 }, d.world)
    ax, ay = world.width / 2, world.height / 2
  end
  local me = (d.species and d.species.name) or "me"
  for k, m in ipairs(d.mates or {}) do
    local dx, dy = body(m, "mates[" .. k .. "]")
    for _, a in ipairs(all) do
      if a.id ~= 1 and a.species == (m.species or me) and a.x == ax + dx and a.y == ay + dy then
        w.mate_ids[k] = a.id
      end
    end
    for name, value in pairs(m.fields or {}) do
      preset(w, w.mate_ids[k], name, value, "mates[" .. k .. "].fields")
    end
  end
end

-- A world from a description (see scenario_text); it has not stepped yet.
function t.world(d)
  d = d or {}
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write("-- written by flockbox test for ", file, "\n", scenario_text(d), "\n")
  f:close()
  local sim, err = core.load(path, d.seed or 1)
  os.remove(path)
  if sim == nil then
    error("the test's world does not load: " .. err, 2)
  end
  local w = setmetatable({ sim = sim, id = 1, description = d }, World)
  preset_fields(w, d)
  if d.input then
    w:input(d.input[1], d.input[2])
  end
  return w
end

-- Raises the rule's error when a rule was switched off: a test of a broken rule fails saying why.
local function check_lost(w)
  local lost = w.sim:lost()
  if lost then
    error(lost, 0)
  end
end

-- Steps the world n times (default 1).
function World:step(n)
  local ok, err = self.sim:step(n or 1)
  if not ok then
    error(err, 2)
  end
  check_lost(self)
  return self
end

-- The player's steering input (fb.input()) from the next step on, as the arrow keys set it.
function World:input(x, y)
  self.sim:input(x, y)
  return self
end

-- A per-agent field of agent id (default the agent under test): what its rules last set with
-- a:set (or the field's default), read after the step that set it.
function World:field(name, id)
  local a = self:agent(id)
  if a == nil then
    error("no agent " .. tostring(id or self.id), 2)
  end
  local v = a.fields[name]
  if v == nil then
    error("no field '" .. tostring(name) .. "' (the world's rules declare none of that name)", 2)
  end
  return v
end

-- Every agent, in id order: { id, species, x, y, vx, vy, hx, hy, speed, energy, fields }; of one species if named.
function World:agents(species)
  local all, out = self.sim:agents(), {}
  for _, a in ipairs(all) do
    if species == nil or a.species == species then
      out[#out + 1] = a
    end
  end
  return out
end

-- One agent by id (default: the agent under test), or nil once removed.
function World:agent(id)
  id = id or self.id
  for _, a in ipairs(self.sim:agents()) do
    if a.id == id then
      return a
    end
  end
  return nil
end

function World:count(species)
  return #self:agents(species)
end

function World:distance(id1, id2)
  local a, b = self:agent(id1), self:agent(id2)
  return t.length(b.x - a.x, b.y - a.y)
end

function World:hash()
  return self.sim:hash()
end

function World:time()
  return self.sim:time()
end

-- The steering (ax, ay) rule k (default 1) of the agent's species gives agent id (default the agent
-- under test) from the world as it stands: one step is run to ask it, so the world moves on.
function World:steer(k, id)
  self.sim:inspect(id or self.id)
  self:step(1)
  local ax, ay = self.sim:output(k or 1)
  if ax == nil then
    error("rule " .. (k or 1) .. " did not run for agent " .. (id or self.id), 2)
  end
  return ax, ay
end

-- The bytes of Lua memory the rules of agent id (default the agent under test) take when run
-- `calls` more times (default 1000) in one step, the collector stopped: "steer allocates nothing"
-- is 0. The agent's first run that step warms its view; the world moves on one step.
function World:allocated(calls, id)
  local bytes = self.sim:allocated(id or self.id, calls or 1000)
  check_lost(self)
  if bytes == nil then
    error("the rules did not run for agent " .. (id or self.id), 2)
  end
  return bytes
end

-- The bytes rule `rule` takes over `calls` calls (default 1000) for the agent of a description.
function t.allocated(rule, d, params, calls)
  local w = t.world(merged(d, { rule = rule, params = params or (d and d.params), rules = false }))
  return w:allocated(calls)
end

-- The steering a rule gives the agent of a description: t.steer("cohesion", { mates = ... }) or
-- t.steer("cohesion", d, { gain = 2 }) with parameters over the rule's defaults. Returns ax, ay
-- (before weights and limits) and the world, one step on.
function t.steer(rule, d, params)
  d = merged(d, { rule = rule, params = params or (d and d.params), rules = false })
  local w = t.world(d)
  local ax, ay = w:steer(1)
  return ax, ay, w
end

-- t.expect(wx, wy, tol, rule, d [, params]): the steering t.steer gives is (wx, wy) within tol (a
-- worked case); returns the world, one step on.
function t.expect(wx, wy, tol, rule, d, params)
  local ax, ay, w = t.steer(rule, d, params)
  t.near2(ax, ay, wx, wy, tol)
  return w
end

-- The species of the shipped rules' hand-worked cases: max_speed 10, max_accel 20, cruise 7, body
-- length 1, separation radius 2, seeing all round far enough for every mate placed; no collisions.
t.WORKED_SPECIES = { max_speed = 10, max_accel = 20, cruise_speed = 7, body_length = 1, collide = false,
  vision = { radius = 30, fov = 360, separation = 2 } }

-- t.worked(vx, vy, mates, extra): a description for a worked case: the agent at (100, 100) moving
-- (vx, vy), of t.WORKED_SPECIES, dt 0.1, the mates given; extra's keys added or replaced.
function t.worked(vx, vy, mates, extra)
  local d = { agent = { 100, 100, vx or 0, vy or 0 }, species = t.WORKED_SPECIES, world = { dt = 0.1 }, mates = mates }
  for k, v in pairs(extra or {}) do
    d[k] = v
  end
  return d
end

-- ---- terrain from a height function -------------------------------------------------------------

--[[
A terrain is a greyscale PNG stretched over the world (terrain.c). A height function h(x, y), or
slope = { gx, gy } (h = gx x + gy y, lowest corner at 0), is sampled at the centre of each of
N × N pixels and written as a 16-bit PNG: height 65535 is the largest sample, so the heights are
exact to 1/65535 of their range. The PNG is written with stored (uncompressed) deflate blocks, the
simplest valid zlib stream: a 2-byte header, blocks of at most 65535 bytes each with its length and
its complement, and the Adler-32 of the data.
]]
local function crc32(s)
  local crc = 0xffffffff
  for k = 1, #s do
    crc = crc ~ s:byte(k)
    for _ = 1, 8 do
      crc = (crc >> 1) ~ (0xedb88320 & -(crc & 1))
    end
  end
  return ~crc & 0xffffffff
end

local function adler32(s)
  local a, b = 1, 0
  for k = 1, #s do
    a = (a + s:byte(k)) % 65521
    b = (b + a) % 65521
  end
  return (b << 16) | a
end

local function chunk(kind, data)
  return string.pack(">I4", #data) .. kind .. data .. string.pack(">I4", crc32(kind .. data))
end

-- A PNG of width x height pixels; sample(i, j) gives a pixel's bytes; colour 0 is 16-bit grey, 2 is 8-bit RGB.
local function png(width, height, colour, sample)
  local rows = {}
  for j = 0, height - 1 do
    local row = { "\0" } -- filter: none
    for i = 0, width - 1 do
      row[#row + 1] = sample(i, j)
    end
    rows[#rows + 1] = table.concat(row)
  end
  local raw = table.concat(rows)
  local blocks = { "\x78\x01" }
  for start = 1, #raw, 65535 do
    local part = raw:sub(start, start + 65534)
    local last = start + 65535 > #raw and 1 or 0
    blocks[#blocks + 1] = string.pack("<I1I2I2", last, #part, ~#part & 0xffff) .. part
  end
  blocks[#blocks + 1] = string.pack(">I4", adler32(raw))
  return "\x89PNG\r\n\26\n" .. chunk("IHDR", string.pack(">I4I4I1I1I1I1I1", width, height, colour == 0 and 16 or 8, colour, 0, 0, 0))
    .. chunk("IDAT", table.concat(blocks)) .. chunk("IEND", "")
end

terrain_png = function(terrain, world)
  local h, n = terrain, 64
  if type(terrain) == "table" then
    local gx, gy = terrain.slope[1], terrain.slope[2]
    local x0, y0 = gx < 0 and world.width or 0, gy < 0 and world.height or 0
    h, n = function(x, y)
      return gx * (x - x0) + gy * (y - y0)
    end, terrain.pixels or n
  end
  local samples, low, high = {}, math.huge, -math.huge
  for j = 0, n - 1 do
    for i = 0, n - 1 do
      local v = h((i + 0.5) * world.width / n, (j + 0.5) * world.height / n)
      samples[j * n + i] = v
      low, high = math.min(low, v), math.max(high, v)
    end
  end
  if low < 0 then
    error("terrain: heights below 0 (" .. show(low) .. "): a terrain's heights run from 0 up", 3)
  end
  local top = high > 0 and high or 1
  local path = os.tmpname() .. ".png"
  local f = assert(io.open(path, "wb"))
  f:write(png(n, n, 0, function(i, j)
    return string.pack(">I2", math.floor(samples[j * n + i] / top * 65535 + 0.5))
  end))
  f:close()
  temporary[#temporary + 1] = path
  return { png = path, height = top }
end

--[[
A flow field's PNG (flow_field.c): red is the x velocity, green the y, each byte c standing for
speed (c - 128) / 127, read bilinearly between pixel centres. fn(x, y) is sampled at the centre
of each of N x N pixels (default 64; pixels = N) and rounded to the nearest byte: a component is
exact where it is 0 or +-speed, and within speed / 254 elsewhere.
]]
flow_png = function(f, world)
  local n, speed = f.pixels or 64, f.speed
  if type(speed) ~= "number" or not (speed > 0) then
    error("flow_fields: a field from fn needs speed = the largest component, > 0", 3)
  end
  local function byte(v)
    return math.max(1, math.min(255, math.floor(128 + 127 * v / speed + 0.5)))
  end
  local path = os.tmpname() .. ".png"
  local out = assert(io.open(path, "wb"))
  out:write(png(n, n, 2, function(i, j)
    local vx, vy = f.fn((i + 0.5) * world.width / n, (j + 0.5) * world.height / n)
    return string.char(byte(vx), byte(vy), 128)
  end))
  out:close()
  temporary[#temporary + 1] = path
  return { png = path, speed = speed }
end

return t
