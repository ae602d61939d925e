-- tests/rules_test.lua — hand-checked cases for every steering rule in behaviours/, in plain Lua 5.4.
-- Run from the repository root:  lua5.4 tests/rules_test.lua
-- Each module is loaded into a sandbox like the engine's (no os, io, require; no new globals), and
-- called with a mock agent view, mock fb functions and a mock species. Expected values are worked
-- out by hand in the comments. Exits with status 1 if anything fails.

local passed, failed = 0, 0

local function check(name, ok, detail)
  if ok then
    passed = passed + 1
  else
    failed = failed + 1
    print("FAIL " .. name .. (detail and (": " .. detail) or ""))
  end
end

local function close(x, want, tol)
  return type(x) == "number" and math.abs(x - want) <= (tol or 1e-9) * math.max(1, math.abs(want))
end

-- Checks that a rule returned exactly two numbers close to (wx, wy).
local function expect(name, wx, wy, ...)
  local count, x, y = select("#", ...), ...
  local ok = count == 2 and close(x, wx, 1e-6) and close(y, wy, 1e-6)
  check(name, ok, string.format("got %s, %s (%d values), want %.6g, %.6g", tostring(x), tostring(y), count, wx, wy))
end

-- ---- mock engine ---------------------------------------------------------------------------------

-- fb: goals, path objects, world size and terrain; the test changes these between cases. fb.world is this same
-- table (a module may keep it, as in the engine, where it holds for the life of the module), callable
-- the older way: fb.world() -> width, height, wraps.
local world = setmetatable({ goals = {}, paths = {}, width = 200, height = 100, wraps = false, dt = 0.1, gx = 0, gy = 0,
  input = { 0, 0 } }, {
  __call = function(w)
    return w.width, w.height, w.wraps
  end,
})
local fb = {
  goal = function(name)
    local g = world.goals[name]
    if g == nil then
      return nil
    end
    return g[1], g[2]
  end,
  -- world.paths[name] = { x, y, tx, ty, speed }: the path object, as fb.path returns it
  path = function(name)
    local p = world.paths[name]
    if p == nil then
      return nil
    end
    return p[1], p[2], p[3], p[4], p[5]
  end,
  world = world,
  time = function()
    return 0, 0
  end,
  terrain = function(x, y)
    return 0, world.gx, world.gy
  end,
  input = function()
    return world.input[1], world.input[2]
  end,
  -- a linear flow field, any name: v = (fx + kx x, fy + ky y) with world.flow = { fx, fy, kx, ky }
  flow = function(name, x, y)
    local f = world.flow
    return f[1] + f[3] * x, f[2] + f[4] * y
  end,
  -- a half-plane region, any name: inside where x < world.region_edge; its inward normal is (-1, 0)
  region = function(name, x, y)
    local e = world.region_edge
    return e - x, 0, math.abs(e - x), -1, 0, x < e
  end,
}
world.flow, world.region_edge = { 0, 0, 0, 0 }, 50

-- The species table the engine passes as s.
local function species(over)
  local s = {
    name = "test", max_speed = 10, min_speed = 0, max_accel = 20, cruise_speed = 7, body_length = 1,
    radius = 10, fov = 270, separation = 2, dt = 0.1,
    width = world.width, height = world.height, wraps = world.wraps,
  }
  for k, v in pairs(over or {}) do
    s[k] = v
  end
  return s
end
local S = species()

-- Methods of the agent view, as in src/rules.c; none of them allocates.
local view = {}
view.__index = view

function view.neighbour(a, k)
  if math.type(k) ~= "integer" or k < 1 or k > a.n then
    error("neighbour index out of range 1..a.n", 2)
  end
  return a._dx[k], a._dy[k], a._dist[k], a._vx[k], a._vy[k], a._id[k]
end

function view.terrain(a)
  return a._h, a._gx, a._gy
end

-- Geometric queries answer offset first, then distance, then the rest, as in src/engine/rules/rule_api.c.
function view.nearest_obstacle(a, range)
  local o = a._obstacle -- { dist, nx, ny, px, py }: the closest surface point at (px, py)
  a._obstacle_range = range
  if o == nil or o[1] > range then
    return nil
  end
  return o[4] - a.x, o[5] - a.y, o[1], o[2], o[3]
end

-- a:route(x, y): o.route = { wx, wy, n } is the next waypoint (world) and the waypoints left; false:
-- no way there; absent: open ground, the goal itself in sight.
function view.route(a, x, y)
  local r = a._route
  if r == false then
    return nil
  end
  local wx, wy, n = x, y, 1
  if r ~= nil then
    wx, wy, n = r[1], r[2], r[3]
  end
  local dx, dy = wx - a.x, wy - a.y
  return dx, dy, math.sqrt(dx * dx + dy * dy), n
end

function view.cast_feeler(a, length, pad)
  local f = a._feeler -- { dist, nx, ny, ox, oy }: hit at dist along the heading, obstacle centre (ox, oy)
  a._feeler_length, a._feeler_pad = length, pad or 0
  if f == nil or f[1] > length then
    return nil
  end
  return a.hx * f[1], a.hy * f[1], f[1], f[2], f[3], f[4] - a.x, f[5] - a.y
end

function view.silhouette_edge(a, range, pad)
  local t = a._silhouette -- { tx, ty, dist }: the point past the edge at (tx, ty)
  a._silhouette_range, a._silhouette_pad = range, pad or 0
  if t == nil or t[3] > range then
    return nil
  end
  return t[1] - a.x, t[2] - a.y, t[3]
end

-- The older query names refuse with a message, as the engine's do.
for _, old in ipairs({ "obstacle", "feeler", "silhouette" }) do
  view[old] = function()
    error("a:" .. old .. " was renamed", 2)
  end
end

-- a:random(stream) answers o.rand[stream], or 0.5.
function view.random(a, stream)
  return a._rand[stream] or 0.5
end

-- Declared per-agent fields: o.fields gives this agent's values; any other field a module declares
-- reads as its declared default (FIELD_DEFAULTS, filled when the modules are loaded), as in the engine.
local FIELD_DEFAULTS = {}

-- a:neighbour_field(k, name): the k-th flock-mate's field, from its entry in o.nb ({dx, dy, vx, vy,
-- id = .., leader = ..}); a declared field it does not give reads as its default.
function view.neighbour_field(a, k, name)
  if math.type(k) ~= "integer" or k < 1 or k > a.n then
    error("neighbour index out of range 1..a.n", 2)
  end
  local v = a._nb[k][name]
  if v == nil then
    v = FIELD_DEFAULTS[name]
  end
  if v == nil then
    error("unknown field '" .. tostring(name) .. "'", 2)
  end
  return v
end

function view.get(a, name)
  local v = a._fields[name]
  if v == nil then
    v = FIELD_DEFAULTS[name]
  end
  if v == nil then
    error("unknown field '" .. tostring(name) .. "'", 2)
  end
  return v
end

-- a:count_in_front(radius, front, species, skip_player) counts o.units = { {dx, dy, species}, ... },
-- every unit round the agent whatever its type (o.nb, the flock-mates, when not given), in Bourg's
-- narrow view; the species "player" is the player's, left out with skip_player.
function view.count_in_front(a, radius, front, species, skip_player)
  local hx, hy, n = a.hx, a.hy, 0
  for _, u in ipairs(a._units or a._nb) do
    local dx, dy = u[1], u[2]
    local side, ahead = dx * -hy + dy * hx, dx * hx + dy * hy
    if (species == nil or u[3] == species) and not (skip_player and u[3] == "player") and math.sqrt(dx * dx + dy * dy) <= radius and ahead > 0
      and math.abs(side) < front * ahead then
      n = n + 1
    end
  end
  return n
end

-- a:set records the value for step t+1 in a._set (the engine's field_next).
function view.set(a, name, value)
  if FIELD_DEFAULTS[name] == nil then
    error("unknown field '" .. tostring(name) .. "'", 2)
  end
  a._set[name] = value
end

-- a:nearest_agent(species, radius) answers o.nearest[species] = { dx, dy, vx, vy, id } when within radius.
function view.nearest_agent(a, name, radius)
  a._nearest_radius = radius
  local t = a._nearest[name]
  if t == nil then
    return nil
  end
  local d = math.sqrt(t[1] * t[1] + t[2] * t[2])
  if d > radius then
    return nil
  end
  return t[1], t[2], d, t[3] or 0, t[4] or 0, t[5] or 7
end

view.nearest = view.nearest_agent -- the older name

-- a:hiding_spot(tx, ty, range, gap) over o.circles = { {cx, cy, r}, ... } (offsets from the agent), as
-- src/engine/rules/rule_api.c computes it for circles: for each circle whose surface is within range, the
-- spot c + (r + gap) u with u the unit vector from the threat (tx, ty) to c; the nearest spot wins.
function view.hiding_spot(a, tx, ty, range, gap)
  local best, bx, by, bcx, bcy = math.huge, 0, 0, 0, 0
  for _, c in ipairs(a._circles) do
    local ux, uy = c[1] - tx, c[2] - ty
    local len = math.sqrt(ux * ux + uy * uy)
    if math.sqrt(c[1] * c[1] + c[2] * c[2]) - c[3] <= range and len > 0 then
      local sx, sy = c[1] + (c[3] + gap) * ux / len, c[2] + (c[3] + gap) * uy / len
      local d = math.sqrt(sx * sx + sy * sy)
      if d < best then
        best, bx, by, bcx, bcy = d, sx, sy, c[1], c[2]
      end
    end
  end
  if best == math.huge then
    return nil
  end
  return bx, by, best, bcx, bcy
end

function view.remove(a, id)
  a._removed = id
end

function view.hold(a)
  a._held = true
end

-- Builds the view of one agent: o.x, o.y, o.vx, o.vy (heading = direction of the velocity, or
-- o.hx, o.hy, or +x when still), o.nb = { {dx, dy, vx, vy}, ... } the flock-mates it sees (offsets
-- from the agent), o.grad = {gx, gy}, o.obstacle, o.feeler, o.silhouette = what those methods answer.
-- Aggregates are computed as the engine does, with the separation radius of species s.
local function agent(o, s)
  s = s or S
  local x, y, vx, vy = o.x or 0, o.y or 0, o.vx or 0, o.vy or 0
  local speed = math.sqrt(vx * vx + vy * vy)
  local hx, hy = o.hx, o.hy
  if hx == nil then
    if speed > 0 then
      hx, hy = vx / speed, vy / speed
    else
      hx, hy = 1, 0
    end
  end
  local a = {
    id = o.id or 1, x = x, y = y, vx = vx, vy = vy, speed = speed, hx = hx, hy = hy, energy = 0,
    n = 0, cx = x, cy = y, avx = 0, avy = 0, sx = 0, sy = 0,
    nearest_dist = math.huge, -- distance to the nearest flock-mate; a:nearest is the method
    _dx = {}, _dy = {}, _dist = {}, _vx = {}, _vy = {}, _id = {},
    _h = 0, _gx = 0, _gy = 0, _obstacle = o.obstacle, _feeler = o.feeler, _silhouette = o.silhouette,
    _route = o.route,
    _fields = o.fields or {}, _set = {}, _nearest = o.nearest or {}, _rand = o.rand or {}, _circles = o.circles or {},
    -- filled in by the methods; declared here so that recording them allocates nothing
    _obstacle_range = 0, _feeler_length = 0, _feeler_pad = 0, _silhouette_range = 0, _silhouette_pad = 0,
    _nearest_radius = 0, _removed = 0,
  }
  for k, v in pairs(FIELD_DEFAULTS) do
    a[k] = v -- every declared field reads as its default unless o.fields gives it
  end
  for k, v in pairs(a._fields) do
    a[k] = v -- the view carries the fields too (a.leader), as the engine's does
  end
  if o.grad then
    a._gx, a._gy = o.grad[1], o.grad[2]
  end
  local nb = o.nb or {}
  a._nb, a._units = nb, o.units
  local sumx, sumy = 0, 0
  for k, m in ipairs(nb) do
    local d = math.sqrt(m[1] * m[1] + m[2] * m[2])
    a._dx[k], a._dy[k], a._dist[k], a._vx[k], a._vy[k], a._id[k] = m[1], m[2], d, m[3] or 0, m[4] or 0, m.id or 100 + k
    sumx, sumy = sumx + m[1], sumy + m[2]
    a.avx, a.avy = a.avx + (m[3] or 0), a.avy + (m[4] or 0)
    if d < s.separation then
      a.sx, a.sy = a.sx - m[1], a.sy - m[2]
    end
    a.nearest_dist = math.min(a.nearest_dist, d)
  end
  a.n = #nb
  if a.n > 0 then
    a.cx, a.cy = x + sumx / a.n, y + sumy / a.n
    a.avx, a.avy = a.avx / a.n, a.avy / a.n
  end
  return setmetatable(a, view)
end

-- ---- loading the modules -------------------------------------------------------------------------

local steering -- the library, loaded below into a sandbox of its own

-- Helper modules a rule may require (formation's slot lists), as if beside the scenario.
local MODULES = {
  test_slots = { { -1, -1 }, { -1, 1 }, { -2, 0 } }, -- in spacings: x ahead, y right
  bad_slots = { { -1, "left" } },
}

local function sandbox()
  local env = {}
  for _, k in ipairs({ "assert", "error", "ipairs", "next", "pairs", "pcall", "select", "tonumber", "tostring",
    "type", "rawequal", "rawget", "rawlen", "rawset", "setmetatable", "getmetatable", "xpcall", "print" }) do
    env[k] = _G[k]
  end
  env.math, env.string, env.table, env.utf8, env.coroutine, env.fb = math, string, table, utf8, coroutine, fb
  env.steering = steering
  env.require = function(name)
    if name == "steering" then
      return steering
    end
    local module = MODULES[name]
    if module == nil then
      error("require: no module '" .. tostring(name) .. "'", 2)
    end
    return module
  end
  return setmetatable(env, {
    __newindex = function(_, k)
      error("sets the global '" .. tostring(k) .. "'", 2)
    end,
  })
end

do
  local chunk = assert(loadfile("behaviours/lib/steering.lua", "t", sandbox()))
  steering = chunk()
  check("steering library loads as a table of functions", type(steering) == "table" and type(steering.seek) == "function")
end

-- A parameter's default: the plain value, or the first item of a declaration { default, min, max, help }.
local function default_of(v)
  if type(v) == "table" then
    return v[1]
  end
  return v
end

local NAMES = {
  "separation", "alignment", "cohesion",
  "separation_bourg", "alignment_bourg", "cohesion_bourg",
  "separation_gompert", "alignment_gompert", "cohesion_gompert",
  "seek_goal", "tend_to_place", "flee_place", "wind", "soft_bounds", "terrain_drag",
  "avoid_repulsive", "avoid_feeler", "avoid_silhouette",
  "leader", "chase", "intercept", "player_control", "flee", "evade", "scatter", "bunch_up", "predator",
  "swarm_point", "follow_path", "refind_path", "perch", "wander", "avoid_flock", "gate_pass",
  "follow_flow", "stay_inside", "follow_wall",
  "queue", "interpose", "hide", "avoid_unaligned",
  "formation", "pursue_path",
  "seek_antipode", "vicsek", "netlogo_flocking", "follow_route",
}

local R = {}
for _, name in ipairs(NAMES) do
  local path = "behaviours/" .. name .. ".lua"
  local file = io.open(path, "r")
  local first = file and file:read("l")
  if file then
    file:close()
  end
  check(name .. ": header line", first ~= nil and first:find("^%-%- behaviours/" .. name .. "%.lua — .+%(.+%)%.$") ~= nil,
    tostring(first))
  local chunk, err = loadfile(path, "t", sandbox())
  local ok, mod = false, err
  if chunk then
    ok, mod = pcall(chunk)
  end
  check(name .. ": loads", ok and type(mod) == "table" and type(mod.steer) == "function", tostring(mod))
  if ok and type(mod) == "table" and type(mod.steer) == "function" then
    local shape = (mod.params == nil or type(mod.params) == "table") and (mod.fields == nil or type(mod.fields) == "table")
      and (mod.validate == nil or type(mod.validate) == "function")
    for k, v in pairs(mod.params or {}) do
      local d = default_of(v)
      shape = shape and type(k) == "string" and (type(d) == "number" or type(d) == "string" or type(d) == "boolean")
      if type(v) == "table" then -- declared: a one-line description, and bounds that hold the default
        shape = shape and type(v.help) == "string" and (v.min == nil or d >= v.min) and (v.max == nil or d <= v.max)
      end
    end
    for k, v in pairs(mod.fields or {}) do
      shape = shape and type(k) == "string" and type(v) == "number"
      FIELD_DEFAULTS[k] = v
    end
    check(name .. ": params, fields and validate have the engine's shapes", shape)
    R[name] = mod
  end
end
if failed > 0 then
  print(string.format("%d passed, %d failed", passed, failed))
  os.exit(1)
end

-- The params table the engine passes: the module's defaults with overrides of the same type.
local function P(name, over)
  local p = {}
  for k, v in pairs(R[name].params or {}) do
    p[k] = default_of(v)
  end
  for k, v in pairs(over or {}) do
    assert(p[k] ~= nil, name .. ": no parameter " .. k)
    assert(type(p[k]) == type(v), name .. ": wrong type for " .. k)
    p[k] = v
  end
  return p
end

-- Calls a rule as the engine does; an error becomes a failure (and no results) instead of a crash.
local function results(name, ok, ...)
  if not ok then
    check(name .. ": steer raised no error", false, tostring((...)))
    return
  end
  return ...
end

local function steer(name, a, over, s)
  return results(name, pcall(R[name].steer, a, P(name, over), s or S))
end

-- validate(p, s) -> nil, or the name of the offending parameter
-- The parameter the engine refuses for these overrides, if any: outside its declared min or max
-- (checked first, as the engine does), or named by the module's validate.
local function rejects(name, over, s)
  for k, v in pairs(over or {}) do
    local spec = R[name].params[k]
    if type(spec) == "table" and type(v) == "number" and ((spec.min and v < spec.min) or (spec.max and v > spec.max)) then
      return k
    end
  end
  local v = R[name].validate
  if v == nil then
    return nil
  end
  local param, message = v(P(name, over), s or S)
  if param ~= nil then
    assert(type(message) == "string", name .. ": validate gave no message")
  end
  return param
end

-- Every module's defaults pass its own validation.
for _, name in ipairs(NAMES) do
  check(name .. ": defaults validate", rejects(name) == nil)
end

-- Rules that read flock-mates do nothing without any (a moving agent, n = 0).
for _, name in ipairs({ "separation", "alignment", "cohesion", "separation_bourg", "alignment_bourg", "cohesion_bourg",
  "separation_gompert", "alignment_gompert", "cohesion_gompert" }) do
  expect(name .. ": no flock-mates", 0, 0, steer(name, agent({ x = 5, y = 5, vx = 3, vy = 1 })))
end

-- ---- Parker ---------------------------------------------------------------------------------------

-- Parker's rules hold at his step T (param step, 0.05 s), whatever the world's dt (0.1 here).
-- cohesion: flock-mates at (8, -3) and (12, 3): centre 10 to the right:
-- ax = 10 / 100 / 0.05^2 = 40, ay = 0.
local crowd = agent({ nb = { { 8, -3 }, { 12, 3 } } })
expect("cohesion: centre 10 to the right", 40, 0, steer("cohesion", crowd))
-- divisor 50: 10 / 50 / 0.05^2 = 80; at step 0.1: 10 / 50 / 0.01 = 20
expect("cohesion: divisor 50", 80, 0, steer("cohesion", crowd, { divisor = 50 }))
expect("cohesion: step 0.1", 20, 0, steer("cohesion", crowd, { divisor = 50, step = 0.1 }))
check("cohesion: divisor 0 rejected", rejects("cohesion", { divisor = 0 }) == "divisor")

-- alignment: flock-mates moving (6, 2) and (10, -2): mean (8, 0); own velocity (0, 4); one factor
-- of T: a = ((8 - 0) / 8 / 0.05, (0 - 4) / 8 / 0.05) = (20, -10).
expect("alignment: toward mean velocity", 20, -10,
  steer("alignment", agent({ vy = 4, nb = { { 5, 0, 6, 2 }, { 0, 5, 10, -2 } } })))

-- separation: separation radius 2; flock-mates at (1, 0) and (0, -1.5) are inside, (5, 0) is not.
-- c = -(1, 0) - (0, -1.5) = (-1, 1.5);  a = c / 1 / 0.05^2 = (-400, 600): away from both.
expect("separation: away from close flock-mates", -400, 600,
  steer("separation", agent({ nb = { { 1, 0 }, { 0, -1.5 }, { 5, 0 } } })))
-- only a far flock-mate: nothing to avoid
expect("separation: nobody too close", 0, 0, steer("separation", agent({ nb = { { 5, 0 } } })))

-- ---- Bourg ----------------------------------------------------------------------------------------
-- Heading +x in a y-down world: the right (starboard) side is r = (-hy, hx) = (0, 1), i.e. +y.
-- force 0 means the species' max_accel, 20.

-- cohesion_bourg: centre straight to the right (0, 10): angle pi/2, a = +1 * 20 * (1/2) * (0, 1) = (0, 10).
expect("cohesion_bourg: turns right toward a centre on the right", 0, 10,
  steer("cohesion_bourg", agent({ vx = 5, nb = { { -2, 10 }, { 2, 10 } } })))
-- centre to the left (0, -10): m = -1, a = (0, -10).
expect("cohesion_bourg: turns left toward a centre on the left", 0, -10,
  steer("cohesion_bourg", agent({ vx = 5, nb = { { 0, -10 } } })))
-- centre at (10, 10): angle pi/4, a = 20 / 4 * (0, 1) = (0, 5).
expect("cohesion_bourg: force proportional to the angle", 0, 5,
  steer("cohesion_bourg", agent({ vx = 5, nb = { { 10, 10 } } })))
-- force 8, centre on the right: 8 * 1/2 = 4.
expect("cohesion_bourg: force parameter", 0, 4,
  steer("cohesion_bourg", agent({ vx = 5, nb = { { 0, 10 } } }), { force = 8 }))
-- dead ahead: nothing to correct; dead behind: no side to choose (Bourg skips |cos| = 1).
expect("cohesion_bourg: centre dead ahead", 0, 0, steer("cohesion_bourg", agent({ vx = 5, nb = { { 10, 0 } } })))
expect("cohesion_bourg: centre dead behind", 0, 0, steer("cohesion_bourg", agent({ vx = 5, nb = { { -10, 0 } } })))
-- heading +y (down the map): right is r = (-1, 0), i.e. -x. Centre at (-10, 0) is on the right:
-- a = +1 * 20 * 1/2 * (-1, 0) = (-10, 0).
expect("cohesion_bourg: heading down the map, centre to its right", -10, 0,
  steer("cohesion_bourg", agent({ vy = 5, nb = { { -10, 0 } } })))
check("cohesion_bourg: negative force rejected", rejects("cohesion_bourg", { force = -1 }) == "force")

-- alignment_bourg: neighbours moving (0, -3) (up the map, to the left of +x): angle pi/2, m = -1:
-- a = -20 / 2 * (0, 1) = (0, -10).
expect("alignment_bourg: turns left toward a heading on the left", 0, -10,
  steer("alignment_bourg", agent({ vx = 5, nb = { { 3, 3, 0, -3 } } })))
-- neighbours moving (2, 2): angle pi/4, on the right: a = (0, 20 / 4) = (0, 5).
expect("alignment_bourg: force proportional to the angle", 0, 5,
  steer("alignment_bourg", agent({ vx = 5, nb = { { 3, 3, 2, 2 } } })))
-- neighbours standing still: no heading to match
expect("alignment_bourg: still neighbours", 0, 0, steer("alignment_bourg", agent({ vx = 5, nb = { { 3, 3 } } })))

-- separation_bourg: limit = factor 2 * body length 1 = 2.
-- Neighbour at (1, 1) on the right, d = sqrt 2: m = -1, a = -20 * 2 / sqrt 2 * (0, 1) = (0, -28.2843).
expect("separation_bourg: turns left, away from a neighbour on the right", 0, -20 * math.sqrt(2),
  steer("separation_bourg", agent({ vx = 5, nb = { { 1, 1 } } })))
-- plus one at (0, -2) on the left, d = 2 (on the limit): +20 * 2 / 2 = +20;
-- total (0, 20 - 28.2843) = (0, -8.2843). One at (3, 0) is beyond the limit.
expect("separation_bourg: pushes from both sides add up", 0, 20 - 20 * math.sqrt(2),
  steer("separation_bourg", agent({ vx = 5, nb = { { 1, 1 }, { 0, -2 }, { 3, 0 } } })))
-- a neighbour dead ahead at d = 1: turn right, 20 * 2 / 1 = 40.
expect("separation_bourg: neighbour dead ahead, turn right", 0, 40,
  steer("separation_bourg", agent({ vx = 5, nb = { { 1, 0 } } })))
expect("separation_bourg: nobody within the limit", 0, 0, steer("separation_bourg", agent({ vx = 5, nb = { { 3, 0 } } })))
check("separation_bourg: factor 0 rejected", rejects("separation_bourg", { factor = 0 }) == "factor")

-- ---- Gompert: fractions of max_accel (20), max_speed 10 --------------------------------------------

-- separation_gompert, comfort C = 4, danger D = 2: neighbour at d = 3:
-- w = (16 - 9) / (16 - 4) = 7/12, away from it: a = -7/12 * 20 = -11.6667 along x.
local zones = { comfort = 4, danger = 2 }
expect("separation_gompert: inside the comfort zone", -20 * 7 / 12, 0,
  steer("separation_gompert", agent({ nb = { { 3, 0 } } }), zones))
-- d = 1 < D: w = 15/12, capped at 1: a = (0, -20) away from a neighbour below.
expect("separation_gompert: inside the danger zone, full push", 0, -20,
  steer("separation_gompert", agent({ nb = { { 0, 1 } } }), zones))
-- both: sum (-7/12, -1), length sqrt(193)/12 = 1.1577 > 1, so scaled to 1:
-- (-7, -12) / sqrt 193 * 20 = (-10.0774, -17.2756).
expect("separation_gompert: sum capped at 1", -140 / math.sqrt(193), -240 / math.sqrt(193),
  steer("separation_gompert", agent({ nb = { { 3, 0 }, { 0, 1 } } }), zones))
expect("separation_gompert: outside the comfort zone", 0, 0,
  steer("separation_gompert", agent({ nb = { { 5, 0 } } }), zones))
check("separation_gompert: danger = comfort rejected", rejects("separation_gompert", { comfort = 4, danger = 4 }) == "danger")
check("separation_gompert: danger > comfort rejected", rejects("separation_gompert", { comfort = 4, danger = 5 }) == "danger")
check("separation_gompert: danger 0 rejected", rejects("separation_gompert", { comfort = 4, danger = 0 }) == "danger")
check("separation_gompert: danger < comfort accepted", rejects("separation_gompert", zones) == nil)

-- alignment_gompert: mean velocity (4, 0), own still: (4 / (10 / 2)) = 0.8, a = 0.8 * 20 = 16.
expect("alignment_gompert: fraction of max_accel", 16, 0,
  steer("alignment_gompert", agent({ nb = { { 3, 0, 4, 0 } } })))
-- mean (3, 4): (0.6, 0.8), length exactly 1, a = (12, 16).
expect("alignment_gompert: fraction of length 1", 12, 16,
  steer("alignment_gompert", agent({ nb = { { 3, 0, 3, 4 } } })))
-- mean (10, 0): 2, capped at 1: a = (20, 0).
expect("alignment_gompert: capped at max_accel", 20, 0,
  steer("alignment_gompert", agent({ nb = { { 3, 0, 10, 0 } } })))

-- cohesion_gompert: centre 10 to the right; body length 1, so 1000 radii = 500 units:
-- 10 / 500 = 0.02 of max_accel 20, a = 0.4 (Gompert's 50 at his radius 0.05).
expect("cohesion_gompert: fraction of max_accel", 0.4, 0, steer("cohesion_gompert", crowd))
-- distance 50 in world units: 10 / 50 = 0.2, a = 4.
expect("cohesion_gompert: distance in world units", 4, 0, steer("cohesion_gompert", crowd, { distance = 50 }))
-- centre 100 away at distance 50: 2, capped at 1: a = 20.
expect("cohesion_gompert: capped at max_accel", 20, 0,
  steer("cohesion_gompert", agent({ nb = { { 100, 0 } } }), { distance = 50 }))

-- seek_goal: goal at (100, 0), cruise_speed 7, max_speed 10 (max_speed / 2 = 5), max_accel 20.
world.goals = { goal = { 100, 0 }, near = { 3, 4 } }
-- already at cruise speed toward the goal: v_g = (7, 0) = v, nothing to do.
expect("seek_goal: at cruise speed toward the goal", 0, 0, steer("seek_goal", agent({ vx = 7 })))
-- moving at 5: (7 - 5) / 5 = 0.4, a = 8.
expect("seek_goal: below cruise speed", 8, 0, steer("seek_goal", agent({ vx = 5 })))
-- gain 0.5: 0.2, a = 4.
expect("seek_goal: gain", 4, 0, steer("seek_goal", agent({ vx = 5 }), { gain = 0.5 }))
-- standing still: 7 / 5 = 1.4, capped at 1: a = 20.
expect("seek_goal: from rest, capped", 20, 0, steer("seek_goal", agent({})))
-- moving away at 7: (7 - -7) / 5 = 2.8, capped: a = 20 toward the goal.
expect("seek_goal: moving away", 20, 0, steer("seek_goal", agent({ vx = -7 })))
-- goal (3, 4) at distance 5 < 7: target velocity (3, 4) itself: (0.6, 0.8) * 20 = (12, 16).
expect("seek_goal: slows near the goal", 12, 16, steer("seek_goal", agent({}), { goal = "near" }))
-- cruise 5 overrides the species: moving at 5 toward the goal is right.
expect("seek_goal: cruise parameter", 0, 0, steer("seek_goal", agent({ vx = 5 }), { cruise = 5 }))
expect("seek_goal: no such goal", 0, 0, steer("seek_goal", agent({}), { goal = "nowhere" }))
check("seek_goal: cruise above max_speed rejected", rejects("seek_goal", { cruise = 11 }) == "cruise")

-- ---- Parker: places, wind, bounds -------------------------------------------------------------------

-- tend_to_place toward (10, 0) from the origin: 10 / 100 / 0.05^2 = 40.
expect("tend_to_place: toward (x, y)", 40, 0, steer("tend_to_place", agent({}), { x = 10 }))
-- toward (30, 40): (3, 4), length 5, max 2: (1.2, 1.6).
expect("tend_to_place: capped by max", 1.2, 1.6, steer("tend_to_place", agent({}), { x = 30, y = 40, max = 2 }))
-- toward the goal at (100, 0): 100 / 100 / 0.05^2 = 400.
expect("tend_to_place: toward a named goal", 400, 0, steer("tend_to_place", agent({}), { goal = "goal" }))
expect("tend_to_place: no such goal", 0, 0, steer("tend_to_place", agent({}), { goal = "nowhere" }))

-- flee_place from (10, 0): the negative of tend_to_place, (-40, 0).
expect("flee_place: away from (x, y)", -40, 0, steer("flee_place", agent({}), { x = 10 }))
expect("flee_place: beyond the radius", 0, 0, steer("flee_place", agent({}), { x = 10, radius = 5 }))
expect("flee_place: within the radius", -40, 0, steer("flee_place", agent({}), { x = 10, radius = 20 }))
-- from the goal at (100, 0), max 4: 400 capped at 4.
expect("flee_place: from a named goal, capped", -4, 0, steer("flee_place", agent({}), { goal = "goal", max = 4 }))

expect("wind: a constant push", 3, -2, steer("wind", agent({ x = 50, y = 60, vx = 1 }), { x = 3, y = -2 }))

-- soft_bounds in a 200 x 100 world, margin 10, push 0.05 per step at T = 0.05: 0.05 / 0.05^2 = 20.
world.width, world.height, world.wraps = 200, 100, false
S.width, S.height, S.wraps = 200, 100, false
expect("soft_bounds: past the left edge", 20, 0, steer("soft_bounds", agent({ x = 5, y = 50 })))
expect("soft_bounds: past the right and bottom edges", -20, -20, steer("soft_bounds", agent({ x = 195, y = 95 })))
expect("soft_bounds: past the top edge", 0, 20, steer("soft_bounds", agent({ x = 100, y = 2 })))
expect("soft_bounds: inside", 0, 0, steer("soft_bounds", agent({ x = 100, y = 50 })))
world.wraps, S.wraps = true, true
expect("soft_bounds: a wrapping world has no edges", 0, 0, steer("soft_bounds", agent({ x = 5, y = 50 })))
world.wraps, S.wraps = false, false

-- ---- Gompert: terrain drag (eq. 14), K = 30 uphill, 6 downhill ---------------------------------------
-- The rule returns eq. 14 itself; the engine integrates it exactly (drag = true, tests/test_table2.c).

-- gradient (0.2, 0) (uphill is +x), slope 0.2. Climbing at v = (2, 0): v.g = 0.4,
-- F = -30 * 0.4 * g / |g| = (-12, 0).
expect("terrain_drag: uphill uses K = 30", -12, 0, steer("terrain_drag", agent({ vx = 2, grad = { 0.2, 0 } })))
-- descending at v = (-2, 0): v.g = -0.4, F = -6 * -0.4 * (1, 0) = (2.4, 0): it resists going down, less.
expect("terrain_drag: downhill uses K = 6", 2.4, 0, steer("terrain_drag", agent({ vx = -2, grad = { 0.2, 0 } })))
-- along the contour, v = (0, 2): v.g = 0, no drag.
expect("terrain_drag: zero along a contour", 0, 0, steer("terrain_drag", agent({ vy = 2, grad = { 0.2, 0 } })))
expect("terrain_drag: zero on flat ground", 0, 0, steer("terrain_drag", agent({ vx = 2, grad = { 0, 0 } })))
-- gradient (0.12, 0.16), |g| = 0.2, v = (1, 0): v.g = 0.12, F = -30 * 0.12 * (0.6, 0.8) = (-2.16, -2.88).
expect("terrain_drag: across a diagonal slope", -2.16, -2.88,
  steer("terrain_drag", agent({ vx = 1, grad = { 0.12, 0.16 } })))
expect("terrain_drag: uphill K parameter", -4, 0,
  steer("terrain_drag", agent({ vx = 2, grad = { 0.2, 0 } }), { uphill = 10 }))
-- no cap: steep ground, slope 0.5, K = 30: F = -30 * 1 * (1, 0) = (-30, 0) (the engine's exact step
-- keeps it from reversing the climb).
expect("terrain_drag: no cap on K |g|", -30, 0, steer("terrain_drag", agent({ vx = 2, grad = { 0.5, 0 } })))
check("terrain_drag: K = 100 and more accepted", rejects("terrain_drag", { uphill = 150, downhill = 30 }) == nil)
-- section 9.3.5: a negative K pushes agents up the slope instead.
expect("terrain_drag: negative K pushes up the slope", 4, 0,
  steer("terrain_drag", agent({ vx = 2, grad = { 0.2, 0 } }), { uphill = -10 }))
check("terrain_drag: negative K accepted", rejects("terrain_drag", { uphill = -10, downhill = -2 }) == nil)

-- ---- obstacle avoidance --------------------------------------------------------------------------

-- avoid_repulsive: surface 6 away, outward normal (-1, 0), reach 3: (3 / 6)^2 = 0.25, a = (-5, 0).
expect("avoid_repulsive: inverse square", -5, 0,
  steer("avoid_repulsive", agent({ vx = 5, obstacle = { 6, -1, 0, 6, 0 } })))
-- surface 2 away, within reach: full push, (-20, 0).
expect("avoid_repulsive: full within reach", -20, 0,
  steer("avoid_repulsive", agent({ vx = 5, obstacle = { 2, -1, 0, 2, 0 } })))
-- inside the obstacle (negative distance): full push out.
expect("avoid_repulsive: inside", 0, 20,
  steer("avoid_repulsive", agent({ vx = 5, obstacle = { -0.5, 0, 1, 0, -0.5 } })))
-- surface 25 away, beyond range 20: the engine answers nil.
expect("avoid_repulsive: out of range", 0, 0,
  steer("avoid_repulsive", agent({ vx = 5, obstacle = { 25, -1, 0, 25, 0 } })))

-- avoid_feeler, heading +x, feeler L = 5 * body length 1 = 5, pad = body radius 0.5.
-- Hit with the obstacle centre at (5, 1), slightly right: |c| = sqrt 26, m = -1:
-- a = -20 * 5 / sqrt 26 * (0, 1) = (0, -19.6116): turn left.
local feel = agent({ vx = 5, feeler = { 3, -1, 0, 5, 1 } })
expect("avoid_feeler: turns away from a centre on the right", 0, -100 / math.sqrt(26), steer("avoid_feeler", feel))
check("avoid_feeler: feeler length and pad", feel._feeler_length == 5 and feel._feeler_pad == 0.5,
  feel._feeler_length .. ", " .. feel._feeler_pad)
expect("avoid_feeler: turns away from a centre on the left", 0, 100 / math.sqrt(26),
  steer("avoid_feeler", agent({ vx = 5, feeler = { 3, -1, 0, 5, -1 } })))
-- centre dead ahead at (5, 0): turn right, 20 * 5 / 5 = 20.
expect("avoid_feeler: centre dead ahead, turn right", 0, 20,
  steer("avoid_feeler", agent({ vx = 5, feeler = { 3, -1, 0, 5, 0 } })))
expect("avoid_feeler: clear", 0, 0, steer("avoid_feeler", agent({ vx = 5 })))

-- avoid_silhouette, max_speed 12 (12 / 2 = 6), max_accel 20, body length 1, pad 0.5.
-- v = (6, 0); target past the edge at (6, 8): direction (0.6, 0.8), v_new = 6 * (0.6, 0.8) = (3.6, 4.8);
-- v_new - v = (-2.4, 4.8), / 6 = (-0.4, 0.8). Surface 3.5 away: gap to the padded surface 3,
-- proximity 1 / (1 + 3) = 0.25. gain 1: (-0.1, 0.2) * 20 = (-2, 4).
local S12 = species({ max_speed = 12 })
local sil = agent({ vx = 6, silhouette = { 6, 8, 3.5 }, obstacle = { 3.5, -1, 0, 3.5, 0 } }, S12)
expect("avoid_silhouette: toward the edge, scaled by proximity", -2, 4, steer("avoid_silhouette", sil, { gain = 1 }, S12))
check("avoid_silhouette: range and pad", sil._silhouette_range == 20 and sil._silhouette_pad == 0.5)
-- gain 10: (-1, 2), length sqrt 5 > 1, capped: (-1, 2) / sqrt 5 * 20 = (-8.9443, 17.8885).
expect("avoid_silhouette: capped at max_accel", -20 / math.sqrt(5), 40 / math.sqrt(5),
  steer("avoid_silhouette", sil, { gain = 10 }, S12))
-- within a body radius (0.5) of a surface: straight out along its normal (0, -1) at max_accel.
expect("avoid_silhouette: emergency push out", 0, -20,
  steer("avoid_silhouette", agent({ vx = 6, silhouette = { 6, 8, 0.2 }, obstacle = { 0.2, 0, -1, 0, 0.2 } }, S12), {}, S12))
expect("avoid_silhouette: nothing ahead", 0, 0,
  steer("avoid_silhouette", agent({ vx = 6, obstacle = { 3.5, -1, 0, 3.5, 0 } }, S12), {}, S12))

-- ---- Bourg, Follow the Leader ------------------------------------------------------------------------
-- Heading +x; the right side is r = (0, 1) (+y, y-down world). Vision radius 10, body length 1.

-- leader: front 1 (a wedge of +-45 degrees ahead), range 0 = the vision radius 10.
-- A unit at (5, 1): 5 ahead, 1 to the side, 1 < 5: in front, so not a leader.
local led = agent({ vx = 5, nb = { { 5, 1 } } })
expect("leader: returns no steering", 0, 0, steer("leader", led))
check("leader: a unit in front, not leader", led._set.leader == 0, tostring(led._set.leader))
-- (5, 6): 6 to the side > 5 ahead: outside the wedge; (-5, 0) behind: the unit leads.
led = agent({ vx = 5, nb = { { 5, 6 }, { -5, 0 } } })
steer("leader", led)
check("leader: nobody in the narrow view, leader", led._set.leader == 1, tostring(led._set.leader))
-- front 2 widens the wedge to |side| < 2 * ahead: (5, 6) is now in front.
led = agent({ vx = 5, nb = { { 5, 6 } } })
steer("leader", led, { front = 2 })
check("leader: front factor widens the view", led._set.leader == 0, tostring(led._set.leader))
-- range 3 body lengths: (5, 1) is 5.1 away, beyond the narrow view.
led = agent({ vx = 5, nb = { { 5, 1 } } })
steer("leader", led, { range = 3 })
check("leader: range limits the narrow view", led._set.leader == 1, tostring(led._set.leader))
check("leader: front 0 rejected", rejects("leader", { front = 0 }) == "front")
-- Bourg counts units of every type: an interceptor at (5, 1), not a flock-mate, keeps a regular
-- unit from leading; with own_type only its flock-mates (none ahead) count.
led = agent({ vx = 5, nb = { { -5, 0 } }, units = { { -5, 0, "regular" }, { 5, 1, "interceptor" } } })
steer("leader", led)
check("leader: a unit of another type in front, not leader", led._set.leader == 0, tostring(led._set.leader))
steer("leader", led, { own_type = true })
check("leader: own_type counts only its own", led._set.leader == 1, tostring(led._set.leader))
-- Bourg's loop skips Units[0], the player: a unit whose only unit ahead is the player leads.
led = agent({ vx = 5, units = { { -5, 0, "regular" }, { 5, 1, "player" } } })
steer("leader", led)
check("leader: the player ahead does not count (Bourg)", led._set.leader == 1, tostring(led._set.leader))
steer("leader", led, { count_player = true })
check("leader: count_player counts it", led._set.leader == 0, tostring(led._set.leader))

-- chase: max_accel 20, settle 15 degrees. Target (0, 10): 90 degrees off, to the right: (0, 20).
expect("chase: full push toward a target on the right", 0, 20,
  steer("chase", agent({ vx = 5, nearest = { player = { 0, 10 } } })))
expect("chase: toward a target on the left", 0, -20,
  steer("chase", agent({ vx = 5, nearest = { player = { 3, -10 } } })))
-- 7.5 degrees off (half of settle): half the push, (0, 10).
expect("chase: within settle the push shrinks", 0, 10,
  steer("chase", agent({ vx = 5, nearest = { player = { 10, 10 * math.tan(math.rad(7.5)) } } })))
-- settle 0 is Bourg's bang-bang: the full push even 7.5 degrees off.
expect("chase: settle 0, bang-bang", 0, 20,
  steer("chase", agent({ vx = 5, nearest = { player = { 10, 10 * math.tan(math.rad(7.5)) } } }), { settle = 0 }))
expect("chase: dead ahead", 0, 0, steer("chase", agent({ vx = 5, nearest = { player = { 10, 0 } } })))
expect("chase: dead behind, turns right", 0, 20, steer("chase", agent({ vx = 5, nearest = { player = { -10, 0 } } })))
expect("chase: no target", 0, 0, steer("chase", agent({ vx = 5 })))
-- leaders_only: a unit whose leader field is 0 does not chase; one whose field is 1 does.
expect("chase: not a leader", 0, 0,
  steer("chase", agent({ vx = 5, nearest = { player = { 0, 10 } }, fields = { leader = 0 } }), { leaders_only = true }))
expect("chase: a leader", 0, 20,
  steer("chase", agent({ vx = 5, nearest = { player = { 0, 10 } }, fields = { leader = 1 } }), { leaders_only = true }))

-- intercept: own velocity (10, 0); target at (30, -40) (50 away) moving (0, 10).
-- v_rel = (0, 10) - (10, 0) = (-10, 10), |v_rel| = 10 sqrt 2; t = 50 / (10 sqrt 2) = 3.5355 s.
-- Aim s1 = (30, -40 + 10 t) = (30, -4.645): to the left, angle atan(4.645 / 30) = 8.80 degrees < 15:
-- a = -20 * 8.80 / 15 * (0, 1) = (0, -11.74).
local t_close = 50 / (10 * math.sqrt(2))
local aim_y = -40 + 10 * t_close
expect("intercept: aims where the target will be", 0, -20 * math.deg(math.atan(-aim_y / 30)) / 15,
  steer("intercept", agent({ vx = 10, nearest = { player = { 30, -40, 0, 10 } } })))
-- chase from the same place turns the other way: the target is up and to the left now, 53 degrees off.
expect("chase: the same target, line of sight", 0, -20,
  steer("chase", agent({ vx = 10, nearest = { player = { 30, -40, 0, 10 } } })))
-- the target moves exactly like the unit: |v_rel| = 0, t = horizon 2: aim (10, 0) + (5, 0) * 2 = (20, 0): ahead.
expect("intercept: closing time capped at the horizon", 0, 0,
  steer("intercept", agent({ vx = 5, nearest = { player = { 10, 0, 5, 0 } } }), { horizon = 2 }))
-- same, target 10 to the right moving with the unit: aim (10, 10): 45 degrees off, full push (0, 20).
expect("intercept: horizon aim to the side", 0, 20,
  steer("intercept", agent({ vx = 5, nearest = { player = { 0, 10, 5, 0 } } }), { horizon = 2 }))

-- player_control: max_speed 10 (/ 2 = 5), max_accel 20, cruise 7.
world.input = { 1, 0 }
-- from rest toward +x: v_d = (10, 0), (10 - 0) / 5 = 2, capped at 1: (20, 0).
expect("player_control: full input from rest", 20, 0, steer("player_control", agent({})))
-- input (0.1, 0): v_d = (1, 0): 1 / 5 = 0.2: (4, 0).
world.input = { 0.1, 0 }
expect("player_control: half-hearted input", 4, 0, steer("player_control", agent({})))
-- input (1, 1) is capped at length 1: v_d = 10 (1, 1) / sqrt 2; already moving so: nothing to do.
world.input = { 1, 1 }
expect("player_control: diagonal input capped", 0, 0,
  steer("player_control", agent({ vx = 10 / math.sqrt(2), vy = 10 / math.sqrt(2) })))
-- no input: keep cruising along the heading at 7: moving at 3, (7 - 3) / 5 = 0.8: (16, 0).
world.input = { 0, 0 }
expect("player_control: no input, cruise on", 16, 0, steer("player_control", agent({ vx = 3 })))

-- ---- predators and prey ------------------------------------------------------------------------------

-- flee: predator at (3, 4), 5 away, radius 0 = vision radius 10; : -(3, 4) / 100 / 0.05^2 = (-12, -16).
local hunted = agent({ nearest = { predator = { 3, 4 } } })
expect("flee: Parker's negative tend_to_place", -12, -16, steer("flee", hunted))
check("flee: looks as far as the vision radius", hunted._nearest_radius == 10)
expect("flee: divisor 10, capped at max 2", -1.2, -1.6, steer("flee", hunted, { divisor = 10, max = 2 }))
expect("flee: beyond the radius", 0, 0, steer("flee", hunted, { radius = 4 }))

-- evade: predator at (10, 0) standing still, agent still: |v_rel| = 0, t = horizon, q = (10, 0);
-- v_e = (-10, 0), (-10 - 0) / 5 = -2, capped: (-20, 0). The agent starts fleeing.
local prey = agent({ nearest = { predator = { 10, 0 } } })
expect("evade: straight away from a still predator", -20, 0, steer("evade", prey))
check("evade: starts fleeing", prey._set.fleeing == 1, tostring(prey._set.fleeing))
-- predator at (10, 0) moving (0, 5): |v_rel| = 5, t = 10 / 5 = 2 s (< horizon 3): q = (10, 10);
-- v_e = -10 (1, 1) / sqrt 2; / 5 = -sqrt 2 (1, 1), length 2, capped: -(1, 1) / sqrt 2 * 20.
expect("evade: away from where the predator will be", -20 / math.sqrt(2), -20 / math.sqrt(2),
  steer("evade", agent({ nearest = { predator = { 10, 0, 0, 5 } } })))
-- gain 0.25 and moving (-5, 0) already: (-10 + 5) / 5 * 0.25 = -0.25: (-5, 0).
expect("evade: gain", -5, 0, steer("evade", agent({ vx = -5, nearest = { predator = { 10, 0 } } }), { gain = 0.25 }))
-- radius 25, calm 40, predator 30 away: not alarmed yet ...
prey = agent({ nearest = { predator = { 30, 0 } } })
expect("evade: beyond the alarm distance", 0, 0, steer("evade", prey, { radius = 25, calm = 40 }))
check("evade: not fleeing", prey._set.fleeing == nil)
-- ... but one already fleeing keeps running until the predator is beyond calm.
prey = agent({ nearest = { predator = { 30, 0 } }, fields = { fleeing = 1 } })
expect("evade: keeps fleeing out to calm", -20, 0, steer("evade", prey, { radius = 25, calm = 40 }))
prey = agent({ nearest = { predator = { 45, 0 } }, fields = { fleeing = 1 } })
expect("evade: calm again beyond calm", 0, 0, steer("evade", prey, { radius = 25, calm = 40 }))
check("evade: stops fleeing", prey._set.fleeing == 0, tostring(prey._set.fleeing))
check("evade: calm below radius rejected", rejects("evade", { radius = 25, calm = 10 }) == "calm")

-- scatter: the crowd's centre 10 to the right. Calm: Parker's cohesion, (40, 0).
local flockmate = agent({ nb = { { 8, -3 }, { 12, 3 } } })
expect("scatter: calm, plain cohesion", 40, 0, steer("scatter", flockmate))
check("scatter: no time left", flockmate._set.scatter == 0)
-- startled by the scenario: multiplier -1 for duration 3 s.
flockmate = agent({ nb = { { 8, -3 }, { 12, 3 } } })
expect("scatter: startled, cohesion negated", -40, 0, steer("scatter", flockmate, { startle = 1 }))
check("scatter: 3 s to go", flockmate._set.scatter == 3)
-- 2 s left: still scattering, 1.9 s left after this step (dt 0.1).
flockmate = agent({ nb = { { 8, -3 }, { 12, 3 } }, fields = { scatter = 2 } })
expect("scatter: still scattering", -40, 0, steer("scatter", flockmate))
check("scatter: counts down", close(flockmate._set.scatter, 1.9))
-- a predator within the alarm radius startles; multiplier -2.
flockmate = agent({ nb = { { 8, -3 }, { 12, 3 } }, nearest = { wolf = { 5, 5 } } })
expect("scatter: startled by a predator", -80, 0, steer("scatter", flockmate, { from = "wolf", alarm = 10, multiplier = -2 }))

-- bunch_up: comfort 8, tight 3, far 60, near 15, ratio 0.5, max_accel 20.
-- No predator: C = 8, D = 4; a flock-mate at 6: w = (64 - 36) / (64 - 16) = 7/12: (-11.667, 0).
expect("bunch_up: no predator, full comfort radius", -20 * 7 / 12, 0, steer("bunch_up", agent({ nb = { { 6, 0 } } })))
-- predator at (36, 0), 30 from the centre of the flock-mates (6, 0): f = (30 - 15) / 45 = 1/3,
-- C = 3 + 5 / 3 = 4.667 < 6: the flock-mate is no longer too close.
expect("bunch_up: predator nearing, radius shrinks", 0, 0,
  steer("bunch_up", agent({ nb = { { 6, 0 } }, nearest = { predator = { 36, 0 } } })))
-- predator within near of the centre (2, 0): C = 3, D = 1.5; flock-mate at 2:
-- w = (9 - 4) / (9 - 2.25) = 0.7407: (-14.815, 0).
expect("bunch_up: tightest with the predator near", -20 * 5 / 6.75, 0,
  steer("bunch_up", agent({ nb = { { 2, 0 } }, nearest = { predator = { 12, 0 } } })))
check("bunch_up: tight above comfort rejected", rejects("bunch_up", { tight = 9 }) == "tight")

-- predator: max_speed 10 (/ 2 = 5), max_accel 20, dt 0.1.
-- Prey at (2, 0), beyond catch 1.5: v_p = (10, 0), 10 / 5 = 2, capped: (20, 0).
local hunter = agent({ nearest = { prey = { 2, 0, 0, 0, 42 } } })
expect("predator: seeks the nearest prey", 20, 0, steer("predator", hunter))
check("predator: no catch yet", hunter._removed == 0)
-- prey at (1, 0): caught (removed through the command queue), rest 4 s, brake: -(3, 0) / 0.1.
hunter = agent({ vx = 3, nearest = { prey = { 1, 0, 0, 0, 42 } } })
expect("predator: catches, then brakes", -30, 0, steer("predator", hunter))
check("predator: removes the prey it caught", hunter._removed == 42)
check("predator: starts resting", hunter._set.resting == 4)
-- resting 2 s: ignores the prey, brakes, 1.9 s left.
hunter = agent({ vx = 3, nearest = { prey = { 1, 0, 0, 0, 42 } }, fields = { resting = 2 } })
expect("predator: resting", -30, 0, steer("predator", hunter))
check("predator: rest counts down, no catch", close(hunter._set.resting, 1.9) and hunter._removed == 0)
expect("predator: no prey in view", 0, 0, steer("predator", agent({ nearest = { prey = { 20, 0 } } })))

-- ---- Gamlen: lamps and paths ------------------------------------------------------------------------

-- swarm_point: lamp at (50, 0): Parker's cohesion toward it, 50 / 100 / 0.05^2 = 200.
world.goals.lamp = { 50, 0 }
expect("swarm_point: pulled toward the lamp", 200, 0, steer("swarm_point", agent({})))
-- lamp at (3, 0), inside repel 6: pull 12 plus a push 20 sqrt(3 / 6) = 14.142 away: (-2.142, 0).
world.goals.lamp = { 3, 0 }
expect("swarm_point: repelled close to the lamp", 12 - 20 * math.sqrt(0.5), 0, steer("swarm_point", agent({})))
expect("swarm_point: no lamp", 0, 0, steer("swarm_point", agent({}), { goal = "nowhere" }))

-- follow_path: path object at (0.2, 0), step 0.05: wanted velocity (0.2, 0) / 0.05 = (4, 0); from
-- rest, bias 0.02: 0.02 (4 - 0) / 0.05 = 1.6.
world.paths.route = { 0.2, 0, 1, 0, 6 }
expect("follow_path: a small bias toward the object", 1.6, 0, steer("follow_path", agent({ nb = { { 3, 3 } } })))
-- moving at (4, 0) already: w - v = 0, nothing.
expect("follow_path: at the object's pace, nothing", 0, 0, steer("follow_path", agent({ vx = 4 })))
-- velocity (0, 2) and q - p = 0: 0.02 (0 - (0, 2)) / 0.05 = (0, -0.8).
world.paths.route = { 0, 0, 1, 0, 6 }
expect("follow_path: damps the velocity", 0, -0.8, steer("follow_path", agent({ vy = 2 })))
-- far away (100, 0): w = 2000 capped at max_speed 10: 0.02 * 10 / 0.05 = 4.
world.paths.route = { 100, 0, 1, 0, 6 }
expect("follow_path: wanted speed capped", 4, 0, steer("follow_path", agent({})))
-- the engine's dt does not enter it: the same at dt 0.01 as at dt 0.1.
world.dt = 0.01
expect("follow_path: the same at another dt", 4, 0, steer("follow_path", agent({})))
world.dt = 0.1
-- another reference step: (0.2, 0) at step 0.1 wants (2, 0); bias 0.04: 0.04 * 2 / 0.1 = 0.8.
world.paths.route = { 0.2, 0, 1, 0, 6 }
expect("follow_path: the reference step", 0.8, 0, steer("follow_path", agent({}), { bias = 0.04, step = 0.1 }))
expect("follow_path: no such path", 0, 0, steer("follow_path", agent({}), { path = "nowhere" }))

-- ---- formations (Reynolds 1999, offset pursuit) --------------------------------------------------------
-- S: max_speed 10, max_accel 20: match_velocity gives 20 (w - v) / 5 = 4 (w - v) while |w - v| <= 5.

-- steering.offset_pursuit: leader at the agent (0, 0) moving (1, 0), heading +x, slot 2 behind it,
-- turning at 0.5 rad/s: o = (-2, 0), the slot's velocity (1, 0) + 0.5 perp(o) = (1, 0) + 0.5 (0, -2)
-- = (1, -1); w = (1, -1) + q0 / T = (1, -1) + (-2, 0) = (-1, -1); from rest 4 w = (-4, -4).
expect("offset_pursuit: the slot swings with a turning leader", -4, -4,
  steering.offset_pursuit(agent({}), S, 0, 0, 1, 0, 1, 0, -2, 0, 1, nil, 1, 0.5))
-- no turn: w = (1, 0) + (-2, 0) = (-1, 0): (-4, 0). T = 2: w = (1, 0) + (-1, 0) = 0: nothing.
expect("offset_pursuit: no turn", -4, 0, steering.offset_pursuit(agent({}), S, 0, 0, 1, 0, 1, 0, -2, 0, 1))
expect("offset_pursuit: at T = 2", 0, 0, steering.offset_pursuit(agent({}), S, 0, 0, 1, 0, 1, 0, -2, 0, 2))
-- far away (100, 0) and the slot at it: w = (1, 0) + (100, 0), capped at 10; from rest, capped: (20, 0).
expect("offset_pursuit: pursues flat out from afar", 20, 0, steering.offset_pursuit(agent({}), S, 100, 0, 1, 0, 1, 0, 0, 0, 1))
-- from_local: 3 ahead and 2 right of heading (0, 1) (down the screen): (0, 3) + 2 (-1, 0) = (-2, 3).
expect("from_local: heading (0, 1)", -2, 3, steering.from_local(0, 1, 3, 2))

-- formation, a given leader: species "lead" at (5, 0) from the agent, moving (5, 0), id 7; the agent
-- alone (N = 1), column, spacing 4: slot 4 behind the leader, offset (1, 0) from the agent; moving
-- (5, 0): w = (5, 0) + (1, 0) = (6, 0), a = 4 (1, 0) = (4, 0).
local lead = { lead = { 5, 0, 5, 0, 7 } }
local f = agent({ vx = 5, nearest = lead })
expect("formation: offset pursuit of the slot behind the leader", 4, 0,
  steer("formation", f, { shape = "column", leader = "lead" }))
check("formation: fields follows, slot, slot_dist", f._set.follows == 7 and f._set.slot == 1 and close(f._set.slot_dist, 1),
  string.format("%s %s %s", f._set.follows, f._set.slot, f._set.slot_dist))

-- Each shape: the leader L at (10, 0) from the agent's frame origin, heading +x at (5, 0); the agent
-- placed exactly on the slot its rank gives, moving with the leader: nothing to do, slot_dist 0.
-- at(ahead, right) is the offset from the agent of a point (ahead, right) of L, given the agent's.
local function on_slot(shape, own, mates, expect_slot, over)
  local nb = {}
  for k, m in ipairs(mates) do
    nb[k] = { m[1] - own[1], m[2] - own[2], 5, 0 }
  end
  local a = agent({ vx = 5, nb = nb, nearest = { lead = { -own[1], -own[2], 5, 0, 7 } } })
  local params = { shape = shape, leader = "lead", spacing = 4, sight = 50 }
  for k, v in pairs(over or {}) do
    params[k] = v
  end
  expect("formation: " .. shape .. ", on its slot, nothing", 0, 0, steer("formation", a, params))
  check("formation: " .. shape .. ", rank " .. expect_slot, a._set.slot == expect_slot and close(a._set.slot_dist, 0, 1e-9)
    and a._set.slot_dist < 1e-9, string.format("slot %s, slot_dist %s", a._set.slot, a._set.slot_dist))
end
-- line, N = 3 ranked by side: -4, 4 (the agent), 8: rank 1; floor(3/2) = 1, j = 0 -> +1: right 4.
on_slot("line", { 0, 4 }, { { 0, -4 }, { 0, 8 } }, 2)
-- column: 4 behind (mate), 8 (the agent), 12: rank 1: 8 behind.
on_slot("column", { -8, 0 }, { { -4, 0 }, { -12, 0 } }, 2)
-- wedge, 45 degrees, N = 3: one on the left arm; ranks by side -2.83, 2.83, 5.66 (the agent): rank 2,
-- the right arm's j = 2: (-8 cos 45, 8 sin 45) = (-5.657, 5.657).
local c45 = 4 * math.cos(math.pi / 4)
on_slot("wedge", { -2 * c45, 2 * c45 }, { { -c45, -c45 }, { -c45, c45 } }, 3)
-- a narrower wedge, 30 degrees: the left arm's one at (-4 cos 30, -4 sin 30) = (-3.464, -2).
on_slot("wedge", { -4 * math.cos(math.pi / 6), -2 }, { { -3, 3 } }, 1, { angle = 30 })
-- circle, N = 4: radius max(4, 4 / (2 sin 45) = 2.83) = 4 (none nearer the leader than a spacing);
-- slots at bearings 45, 135, 225, 315 clockwise from the heading: (2.83, 2.83), (-2.83, 2.83),
-- (-2.83, -2.83), (2.83, -2.83) as (ahead, right). The agent at 135: rank 1.
on_slot("circle", { -c45, c45 }, { { c45, c45 }, { -c45, -c45 }, { c45, -c45 } }, 2)
-- N = 8: radius 4 / (2 sin 22.5) = 5.226; the agent at 22.5 degrees, the first clockwise: rank 0.
do
  local r, mates = 4 / (2 * math.sin(math.pi / 8)), {}
  for k = 1, 7 do
    local b = 2 * math.pi * (k + 0.5) / 8
    mates[k] = { r * math.cos(b), r * math.sin(b) }
  end
  on_slot("circle", { r * math.cos(math.pi / 8), r * math.sin(math.pi / 8) }, mates, 1)
end
-- slots from a module: {-1, -1}, {-1, 1}, {-2, 0} in spacings; by y: (-1, -1), (-2, 0), (-1, 1).
-- The agent between the other two (side 0): rank 1, (-2, 0) * 4 = 8 behind.
on_slot("slots", { -8, 0 }, { { -4, -4 }, { -4, 4 } }, 2, { slots = "test_slots" })
-- a fourth member, rightmost (the others at sides -4, -2, -1): no slot left; it queues behind the rearmost, (-2 - 1) * 4 = 12 behind.
on_slot("slots", { -12, 0 }, { { -4, -4 }, { -4, -2 }, { -8, -1 } }, 4, { slots = "test_slots" })
-- ties on the axis go by id: two members at the same side; the agent (id 1) before the mate (id 101).
on_slot("line", { 0, -4 }, { { 0, -4 } }, 1)

-- Ranking follows the leader's frame: leader heading +y (down the screen), right side (-1, 0). The
-- agent at 4 to the leader's right is at world offset (-4, 0) from it; a mate at its left (4, 0):
-- line N = 2: the mate rank 0 (left), the agent rank 1 -> right 4, where it is.
do
  local a = agent({ vy = 5, nb = { { 8, 0, 0, 5 } }, nearest = { lead = { 4, 0, 0, 5, 7 } } })
  expect("formation: a leader heading down the screen", 0, 0, steer("formation", a, { shape = "line", leader = "lead" }))
  check("formation: ranks in the leader's frame", a._set.slot == 2, tostring(a._set.slot))
end

-- Election: the agent (id 1) flagged leader and leading last step: it leads, nothing to do.
local e = agent({ vx = 5, fields = { leader = 1, follows = 1 }, nb = { { -4, 0, 5, 0, id = 3, leader = 1 } } })
expect("formation: an elected leader leads", 0, 0, steer("formation", e, { shape = "column" }))
check("formation: the leader follows itself", e._set.follows == 1 and e._set.slot == 0, tostring(e._set.follows))
-- Not elected (id 5): the elected flock-mate id 3 at (5, 0) leads; the mate id 8 at (-5, 0) is 10 behind
-- the leader, the agent 5: rank 0, slot 4 behind the leader, (1, 0) away: (4, 0) as for a given leader.
e = agent({ id = 5, vx = 5, nb = { { -5, 0, 5, 0, id = 8 }, { 5, 0, 5, 0, id = 3, leader = 1 } } })
expect("formation: follows the elected flock-mate", 4, 0, steer("formation", e, { shape = "column" }))
check("formation: follows id 3, first in the column", e._set.follows == 3 and e._set.slot == 1,
  string.format("%s %s", e._set.follows, e._set.slot))
-- Two elected in sight: the one followed last step (id 9) is kept, not the smaller id 3.
e = agent({ id = 5, vx = 5, fields = { follows = 9 }, nb = { { 5, 0, 5, 0, id = 3, leader = 1 }, { 5, 3, 5, 0, id = 9, leader = 1 } } })
steer("formation", e, { shape = "column" })
check("formation: keeps the leader it followed", e._set.follows == 9, tostring(e._set.follows))
-- ... and with none followed before, the smallest id.
e = agent({ id = 5, vx = 5, nb = { { 5, 3, 5, 0, id = 9, leader = 1 }, { 5, 0, 5, 0, id = 3, leader = 1 } } })
steer("formation", e, { shape = "column" })
check("formation: the smallest elected id", e._set.follows == 3, tostring(e._set.follows))
-- Flagged itself but a smaller elected id in sight, and not leading before: it follows (id 3).
e = agent({ id = 5, vx = 5, fields = { leader = 1 }, nb = { { 5, 0, 5, 0, id = 3, leader = 1 } } })
steer("formation", e, { shape = "column" })
check("formation: two fronts, the smaller id leads", e._set.follows == 3, tostring(e._set.follows))

-- The leader's turn: followed last step (follows 7) heading (1, 0), now moving (4, 3): heading (0.8, 0.6),
-- turned by atan(0.6, 0.8) = 0.6435 rad over dt 0.1: 6.435 rad/s. Agent alone, column, 4 behind:
-- o = -4 (0.8, 0.6) = (-3.2, -2.4); slot velocity (4, 3) + 6.435 (2.4, -3.2) = (19.444, -17.592);
-- the agent on its slot at rest: w = that, capped at 10; a = 4 w capped at 20: along w, 20.
do
  local turn = math.atan(0.6, 0.8) / 0.1
  local wx, wy = 4 + turn * 2.4, 3 - turn * 3.2
  local len = math.sqrt(wx * wx + wy * wy)
  local a = agent({ fields = { follows = 7, lead_hx = 1, lead_hy = 0 }, nearest = { lead = { 3.2, 2.4, 4, 3, 7 } } })
  expect("formation: the slot swings as the leader turns", 20 * wx / len, 20 * wy / len,
    steer("formation", a, { shape = "column", leader = "lead" }))
  check("formation: remembers the leader's heading", close(a._set.lead_hx, 0.8) and close(a._set.lead_hy, 0.6))
end
-- A leader standing still: the heading remembered, (0, 1); slot 4 behind it = (0, -4) from it.
do
  local a = agent({ fields = { follows = 7, lead_hx = 0, lead_hy = 1 }, nearest = { lead = { 0, 4, 0, 0, 7 } } })
  expect("formation: a still leader keeps its last heading", 0, 0, steer("formation", a, { shape = "column", leader = "lead" }))
end

-- No leader in sight. regroup: mates at (2, 0) and (4, 0), still: w = 0 + (3, 0) / 1: from rest (12, 0).
expect("formation: lost, regroup on the mates", 12, 0,
  steer("formation", agent({ nb = { { 2, 0 }, { 4, 0 } } }), { leader = "lead" }))
-- hold: brake, moving (5, 0): 4 (-5, 0) = (-20, 0); free: nothing.
expect("formation: lost, hold", -20, 0, steer("formation", agent({ vx = 5 }), { leader = "lead", lost = "hold" }))
expect("formation: lost, free", 0, 0, steer("formation", agent({ vx = 5 }), { leader = "lead", lost = "free" }))
do
  local a = agent({ vx = 5, fields = { follows = 7, slot = 3 } })
  steer("formation", a, { leader = "lead" })
  check("formation: lost, no slot", a._set.follows == 0 and a._set.slot == 0)
end
check("formation: an unknown shape rejected", rejects("formation", { shape = "hexagon" }) == "shape")
check("formation: an unknown lost rejected", rejects("formation", { lost = "panic" }) == "lost")
check("formation: slots without a module rejected", rejects("formation", { shape = "slots" }) == "slots")
check("formation: a missing slot module rejected", rejects("formation", { shape = "slots", slots = "nowhere" }) == "slots")
check("formation: a bad slot list rejected", rejects("formation", { shape = "slots", slots = "bad_slots" }) == "slots")
check("formation: a slot module accepted", rejects("formation", { shape = "slots", slots = "test_slots" }) == nil)

-- pursue_path: object at (2, 0) moving (3, 0) along +x; the point 1 behind it: offset (1, 0);
-- w = (3, 0) + (1, 0) = (4, 0); from rest 4 (4, 0) = (16, 0).
world.paths.route = { 2, 0, 1, 0, 3 }
expect("pursue_path: arrives behind the object", 16, 0, steer("pursue_path", agent({}), { ahead = -1 }))
-- beside it, 2 to its right (0, 2): offset (2, 2); moving (3, 0): w = (5, 2), w - v = (2, 2): (8, 8).
expect("pursue_path: to the right of it", 8, 8, steer("pursue_path", agent({ vx = 3 }), { right = 2 }))
expect("pursue_path: no such path", 0, 0, steer("pursue_path", agent({}), { path = "nowhere" }))

-- refind_path: object at (30, 40), alone (n = 0), at rest: all of max_accel 20 toward it, (12, 16).
world.paths.route = { 30, 40, 1, 0, 6 }
expect("refind_path: lost, heads straight for the object", 12, 16, steer("refind_path", agent({})))
-- moving at (0, -10) (away, full speed): w - v = (6, 8) - (0, -10) = (6, 18): 20 (6, 18) / |(6, 18)|.
local l = math.sqrt(6 * 6 + 18 * 18)
expect("refind_path: turns a member flying away", 20 * 6 / l, 20 * 18 / l, steer("refind_path", agent({ vy = -10 })))
-- flying straight at it at full speed: nothing left to do.
expect("refind_path: already on its way", 0, 0, steer("refind_path", agent({ vx = 6, vy = 8 })))
-- sees a flock-mate: not lost.
expect("refind_path: not lost", 0, 0, steer("refind_path", agent({ nb = { { 3, 3 } } })))
-- fewer_than = 3: one flock-mate in view is lost.
expect("refind_path: lost with too few in view", 12, 16, steer("refind_path", agent({ nb = { { 3, 3 } } }), { fewer_than = 3 }))
expect("refind_path: no such path", 0, 0, steer("refind_path", agent({}), { path = "nowhere" }))

-- ---- Parker: perching -------------------------------------------------------------------------------

-- perched, 3 s left: held still (a:hold(): no other rule runs, no motion); 2.9 s left.
local bird = agent({ vx = 3, fields = { perch = 3, alt = 0 } })
expect("perch: sits still", 0, 0, steer("perch", bird))
check("perch: holds the bird", bird._held == true)
check("perch: perch time counts down", close(bird._set.perch, 2.9))
-- 0.05 s left: takes off, full acceleration along the heading, back up to the ceiling 30.
bird = agent({ vx = 0.1, fields = { perch = 0.05, alt = 0 } })
expect("perch: takes off", 20, 0, steer("perch", bird))
check("perch: lets go on take-off", bird._held == nil)
check("perch: climbs to the ceiling", bird._set.perch == 0 and bird._set.alt == 30)
-- flying at 10 up at speed 5, random 0.5: sinks 2 * 2 * 0.5 * 0.1 = 0.2 to 9.8; holds cruise 7:
-- 2 * (7 - 5) = 4 along the heading.
bird = agent({ vx = 5, fields = { perch = 0, alt = 10 } })
expect("perch: flying, holds the cruising speed", 4, 0, steer("perch", bird))
check("perch: glides down", close(bird._set.alt, 9.8))
-- at 0.1 up: 0.1 - 0.2 <= ground 0: lands, perch 2 + (6 - 2) * 0.5 = 4 s; held still at once.
bird = agent({ vx = 5, fields = { perch = 0, alt = 0.1 } })
expect("perch: lands", 0, 0, steer("perch", bird))
check("perch: held on landing", bird._held == true)
check("perch: lands for a random time", bird._set.alt == 0 and bird._set.perch == 4)
check("perch: ceiling below ground rejected", rejects("perch", { ground = 5, ceiling = 5 }) == "ceiling")

-- ---- wander, two flocks, the gate --------------------------------------------------------------------

-- wander: random 0.5 is no jitter; angle 0: wanted velocity cruise 7 along the heading.
expect("wander: on course at cruising speed", 0, 0, steer("wander", agent({ vx = 7 })))
-- at 5: (7 - 5) / 5 = 0.4, times strength 0.5 * max_accel 20: (4, 0).
expect("wander: toward cruising speed", 4, 0, steer("wander", agent({ vx = 5 })))
-- wander angle 1 rad, beyond limit 45 degrees: held at 45; from rest 7 (cos, sin) 45 / 5 = (0.99, 0.99),
-- length 1.4, capped: (0.7071, 0.7071) * 10.
local wanderer = agent({ hx = 1, hy = 0, fields = { wander = 1 } })
expect("wander: angle held within the limit", 10 / math.sqrt(2), 10 / math.sqrt(2), steer("wander", wanderer))
check("wander: angle remembered", close(wanderer._set.wander, math.rad(45)))

-- avoid_flock: comfort 6, range 16, max_accel 20.
-- heading +y, other member at (10, 0) beside it: straight push, f = sqrt((16 - 10) / 10): (-15.49, 0).
expect("avoid_flock: pushed straight away", -20 * math.sqrt(0.6), 0,
  steer("avoid_flock", agent({ vy = 5, nearest = { aqua = { 10, 0 } } }), { other = "aqua" }))
-- inside the comfort radius, behind: full push (20, 0).
expect("avoid_flock: full push inside comfort", 20, 0,
  steer("avoid_flock", agent({ vx = 5, nearest = { aqua = { -4, 0 } } }), { other = "aqua" }))
-- ahead and to the right at (8, 6), 10 away: push along -(u + 0.5 r) = -((0.8, 0.6) + (0, 0.5)),
-- unit -(0.5872, 0.8074), times sqrt(0.6) * 20.
local side = math.sqrt(0.8 ^ 2 + 1.1 ^ 2)
expect("avoid_flock: sidesteps one ahead", -0.8 / side * 20 * math.sqrt(0.6), -1.1 / side * 20 * math.sqrt(0.6),
  steer("avoid_flock", agent({ vx = 5, nearest = { aqua = { 8, 6 } } }), { other = "aqua" }))
expect("avoid_flock: nobody in range", 0, 0,
  steer("avoid_flock", agent({ vx = 5, nearest = { aqua = { 20, 0 } } }), { other = "aqua" }))

-- gate_pass: gate at (50, 0): tend to it, 50 / 100 / 0.05^2 = 200.
world.goals.gate, world.goals.pasture = { 50, 0 }, { 40, 30 }
local sheep = agent({})
expect("gate_pass: tends to the gate", 200, 0, steer("gate_pass", sheep))
check("gate_pass: not through yet", sheep._set.passed == nil)
-- gate 2 away (within reach 3): reached; tends to the pasture (40, 30) instead: (160, 120).
world.goals.gate = { 2, 0 }
sheep = agent({})
expect("gate_pass: reaches the gate, moves on", 160, 120, steer("gate_pass", sheep))
check("gate_pass: remembers it", sheep._set.passed == 1)
world.goals.gate = { 50, 0 }
expect("gate_pass: through, to the pasture", 160, 120, steer("gate_pass", agent({ fields = { passed = 1 } })))

-- follow_route: at rest at the origin, speed 1, time 0.25. The goal (10, 0) in sight: w = (1, 0)
-- (the offset cut to the speed), a = w / 0.25. A waypoint (0, 5) with more after it: full speed toward
-- it. No way there: nothing. The goal 0.5 away on the last leg: w = the offset, slowing down.
expect("follow_route: the goal in sight", 4, 0, steer("follow_route", agent({}), { x = 10 }))
expect("follow_route: toward the next waypoint", 0, 4, steer("follow_route", agent({ route = { 0, 5, 2 } }), { x = 10 }))
expect("follow_route: no way there", 0, 0, steer("follow_route", agent({ route = false }), { x = 10 }))
expect("follow_route: slows onto the goal", 2, 0, steer("follow_route", agent({}), { x = 0.5 }))

-- follow_flow: at (10, 0) moving (4, 0), predict 0.5: the field is read at (12, 0), where
-- v = (0 + 0.1 * 12, 3) = (1.2, 3); gain 2: a = 2 ((1.2, 3) - (4, 0)) = (-5.6, 6).
world.flow = { 0, 3, 0.1, 0 }
expect("follow_flow: toward the field where it will be", -5.6, 6, steer("follow_flow", agent({ x = 10, vx = 4 })))
-- predict 0: read where it is, (10, 0): v = (1, 3); a = 2 ((1, 3) - (4, 0)) = (-6, 6).
expect("follow_flow: predict 0 reads the field here", -6, 6, steer("follow_flow", agent({ x = 10, vx = 4 }), { predict = 0 }))
world.flow = { 0, 0, 0, 0 }

-- stay_inside: the edge at x = 50, margin 4, predict 1, max_accel 20.
-- At 40 moving 7: predicted 47, inside, 3 from the edge: e = 1, push 20 min(1, 2 / 4) = 10 along (-1, 0).
expect("stay_inside: within the margin, a part push", -10, 0, steer("stay_inside", agent({ x = 40, vx = 7 })))
-- At 48 moving 5: predicted 53, outside by 3: e = 7 > 4, the whole push.
expect("stay_inside: predicted outside, the whole push", -20, 0, steer("stay_inside", agent({ x = 48, vx = 5 })))
expect("stay_inside: far inside, nothing", 0, 0, steer("stay_inside", agent({ x = 10, vx = 5 })))
expect("stay_inside: force 8", -8, 0, steer("stay_inside", agent({ x = 48, vx = 5 }), { force = 8 }))

-- follow_wall: heading +x at cruise 7, the wall 4 below (+y, its right side), outward normal (0, -1).
-- t = (-ny, nx) = (1, 0); gain 6, offset 3: close = 6 / 4 (3 - 4) = -1.5; w = (7, 0) - 1.5 (0, -1) = (7, 1.5);
-- a = 6 (w - v) = (0, 9): toward the wall.
local walker = agent({ vx = 7, obstacle = { 4, 0, -1, 0, 4 } })
expect("follow_wall: along, closing the gap", 0, 9, steer("follow_wall", walker))
check("follow_wall: notes the gap", walker._set.wall_gap == 1, tostring(walker._set.wall_gap))
-- side left: t = (ny, -nx) = (-1, 0): w = (-7, 1.5), a = 6 (-14, 1.5) = (-84, 9): it turns back.
expect("follow_wall: wall on the left runs the other way", -84, 9,
  steer("follow_wall", agent({ vx = 7, obstacle = { 4, 0, -1, 0, 4 } }), { side = "left" }))
-- at the offset and at speed: nothing to change.
expect("follow_wall: at the offset, at speed", 0, 0, steer("follow_wall", agent({ vx = 7, obstacle = { 3, 0, -1, 0, 3 } })))
-- a corner: the nearest point is the corner at (-3, 4) seen from (0, 0), 5 away: n = (0.6, -0.8),
-- t = (0.8, 0.6) turns round it; close = 1.5 (3 - 5) = -3; w = 7 (0.8, 0.6) - 3 (0.6, -0.8) = (3.8, 6.6);
-- a = 6 ((3.8, 6.6) - (7, 0)) = (-19.2, 39.6).
expect("follow_wall: rounds a corner", -19.2, 39.6,
  steer("follow_wall", agent({ vx = 7, obstacle = { 5, 0.6, -0.8, -3, 4 } })))
local lost = agent({ vx = 7, obstacle = { 20, 0, -1, 0, 20 } })
expect("follow_wall: no wall in range", 0, 0, steer("follow_wall", lost))
check("follow_wall: no wall, the gap is range - offset", lost._set.wall_gap == 9, tostring(lost._set.wall_gap))
check("follow_wall: refuses a side that is neither", rejects("follow_wall", { side = "up" }) == "side")
-- ---- Reynolds 1999: queue, interpose, hide, unaligned collision avoidance ----------------------------
-- The species: max_speed 10 (max_speed / 2 = 5), max_accel 20, cruise 7, body_length 1.

-- queue (range 3, cone 30 degrees, margin 0.5, gain 2), moving (4, 0): stopping distance
-- 4^2 / (2 * 20) + 0.5 = 0.9. One in front at 2.5 moving (1, 0): gap 2.5 - 1 = 1.5 > 0.9, but
-- nearby and slower: brake toward 1: f = 2 * (4 - 1) / 5 = 1.2, capped at 1: (-20, 0).
expect("queue: brakes behind a slower one in front", -20, 0,
  steer("queue", agent({ vx = 4, nb = { { 2.5, 0, 1, 0 } } })))
-- gain 0.5: f = 0.5 * 3 / 5 = 0.3: (-6, 0).
expect("queue: brakes toward its speed", -6, 0, steer("queue", agent({ vx = 4, nb = { { 2.5, 0, 1, 0 } } }), { gain = 0.5 }))
-- one at 1.8 moving as fast: gap 0.8 < 0.9, inside the stopping distance: toward 0, f = 0.5 * 4 / 5 = 0.4: (-8, 0).
expect("queue: stops for one within the braking distance", -8, 0,
  steer("queue", agent({ vx = 4, nb = { { 1.8, 0, 4, 0 } } }), { gain = 0.5 }))
-- heading +y: the one in front at (0, 2.5), moving (0, 1): the brake is along the heading, (0, -6).
expect("queue: brakes along the heading", 0, -6, steer("queue", agent({ vy = 4, nb = { { 0, 2.5, 0, 1 } } }), { gain = 0.5 }))
expect("queue: one 45 degrees off is outside the 30-degree cone", 0, 0,
  steer("queue", agent({ vx = 4, nb = { { 2, 2, 0, 0 } } })))
expect("queue: one in front but faster", 0, 0, steer("queue", agent({ vx = 4, nb = { { 2.5, 0, 5, 0 } } })))
expect("queue: one behind", 0, 0, steer("queue", agent({ vx = 4, nb = { { -1.5, 0, 0, 0 } } })))
expect("queue: standing still", 0, 0, steer("queue", agent({ nb = { { 1.2, 0, 0, 0 } } })))

-- interpose: vip at (2, 0) still, threat at (2, 2) still: the midpoint (2, 1) is under 10 away, so
-- arrive wants the velocity (2, 1) itself: from rest (2, 1) / 5 * 20 = (8, 4).
expect("interpose: to the midpoint", 8, 4, steer("interpose", agent({ nearest = { vip = { 2, 0 }, threat = { 2, 2 } } })))
-- the vip moving (1, 0): T = |(2, 1)| / 10 = sqrt(5) / 10; it will be at (2 + T, 0); the target is
-- (2 + T / 2, 1): a = (2 + T / 2, 1) * 4.
local T = math.sqrt(5) / 10
expect("interpose: to the midpoint of the predicted positions", (2 + T / 2) * 4, 4,
  steer("interpose", agent({ nearest = { vip = { 2, 0, 1, 0 }, threat = { 2, 2 } } })))
expect("interpose: one of the two out of sight", 0, 0, steer("interpose", agent({ nearest = { vip = { 2, 0 } } })))
expect("interpose: beyond the sight", 0, 0,
  steer("interpose", agent({ nearest = { vip = { 2, 0 }, threat = { 2, 20 } } }), { sight = 10 }))

-- hide (gap 1, plus the body radius 0.5): threat at (-10, 0), a pillar of radius 2 at (10, 0): the
-- spot is (10 + 2 + 1.5, 0) = (13.5, 0); arrive at cruise 7: moving (5, 0), (7 - 5) / 5 * 20 = 8.
local pillar = { { 10, 0, 2 } }
expect("hide: behind the pillar, away from the threat", 8, 0,
  steer("hide", agent({ vx = 5, nearest = { threat = { -10, 0 } }, circles = pillar })))
expect("hide: at cruising speed toward the spot", 0, 0,
  steer("hide", agent({ vx = 7, nearest = { threat = { -10, 0 } }, circles = pillar })))
-- a second pillar of radius 1 at (0, 5): u = (10, 5) / |(10, 5)|, spot (0, 5) + 2.5 u = (2.2361, 6.1180),
-- 6.51 away, nearer than 13.5: from rest, wanted velocity the offset itself, / 5 > 1, capped: 20 along it.
local u = 2.5 / math.sqrt(125)
local sx, sy = 10 * u, 5 + 5 * u
local sl = math.sqrt(sx * sx + sy * sy)
expect("hide: behind the pillar whose spot is nearest", sx / sl * 20, sy / sl * 20,
  steer("hide", agent({ nearest = { threat = { -10, 0 } }, circles = { { 10, 0, 2 }, { 0, 5, 1 } } })))
-- no pillar within range 5: flee the threat at (0, -10) at max speed: from rest, capped: (0, 20).
expect("hide: flees when no obstacle is near", 0, 20,
  steer("hide", agent({ nearest = { threat = { 0, -10 } }, circles = pillar }), { range = 5 }))
expect("hide: no threat in sight", 0, 0, steer("hide", agent({ circles = pillar })))

-- avoid_unaligned (horizon 3, margin 0.5: clearance 1 + 0.5 = 1.5; force 20, brake 0.5), moving
-- (2, 0); its right is +y. One at (4, -4.5) moving (0, 2): rv = (-2, 2), t = -(d . rv) / |rv|^2 =
-- 17 / 8 = 2.125, q = (4 - 4.25, -4.5 + 4.25) = (-0.25, -0.25), 0.35 < 1.5: a collision. It will be to
-- the left and behind: push right and speed up, k = 20 (1 - 2.125 / 3) = 5.8333:
-- a = k (0, 1) + 0.5 k (1, 0) = (2.9167, 5.8333).
local k = 20 * (1 - 2.125 / 3)
expect("avoid_unaligned: passes one that will cross behind, to the right and faster", 0.5 * k, k,
  steer("avoid_unaligned", agent({ vx = 2, nb = { { 4, -4.5, 0, 2 } } })))
-- one at (5, -4) moving (0, 2): t = 18 / 8 = 2.25, q = (0.5, 0.5): to the right and ahead: push left
-- and slow down, k = 20 (1 - 0.75) = 5: (-2.5, -5).
expect("avoid_unaligned: turns left and slows for one that will be ahead on the right", -2.5, -5,
  steer("avoid_unaligned", agent({ vx = 2, nb = { { 5, -4, 0, 2 } } })))
-- both: the one at t = 2.125 comes first.
expect("avoid_unaligned: dodges the soonest", 0.5 * k, k,
  steer("avoid_unaligned", agent({ vx = 2, nb = { { 5, -4, 0, 2 }, { 4, -4.5, 0, 2 } } })))
-- one at (4, -10) moving (0, 2): nearest at t = 3.5, past the horizon: at t = 3, q = (-2, -4), far: nothing.
expect("avoid_unaligned: a miss", 0, 0, steer("avoid_unaligned", agent({ vx = 2, nb = { { 4, -10, 0, 2 } } })))
-- head on: one at (10, 0) moving (-2, 0): t = 2.5, q = (0, 0), dead ahead: pass on the right and
-- slow down (q . h = 0: no brake), k = 20 (1 - 2.5 / 3) = 3.3333: (0, 3.3333).
expect("avoid_unaligned: head on, passes on the right", 0, 20 / 6,
  steer("avoid_unaligned", agent({ vx = 2, nb = { { 10, 0, -2, 0 } } })))
check("avoid_unaligned: horizon 0 rejected", rejects("avoid_unaligned", { horizon = 0 }) == "horizon")

-- steering.nearest_approach: (4, -4.5) closing at (-2, 2): t = 2.125, q = (-0.25, -0.25), |q| = 0.3536.
do
  local t, qx, qy, d = steering.nearest_approach(4, -4.5, -2, 2, 3)
  check("steering.nearest_approach", close(t, 2.125) and close(qx, -0.25) and close(qy, -0.25) and close(d, math.sqrt(0.125)))
  t, qx = steering.nearest_approach(4, 0, 1, 0, 3)
  check("steering.nearest_approach: drawing away is nearest now", t == 0 and qx == 4)
end
-- seek_antipode about (10, 0), speed 1, time 0.25. First step at (0, 0): the goal is (20, 0), kept in its
-- fields; the wanted velocity is (1, 0), from rest a = (1 - 0) / 0.25 = 4.
local walker = agent({})
expect("seek_antipode: first step fixes the goal", 4, 0, steer("seek_antipode", walker, { x = 10 }))
check("seek_antipode: goal stored", walker._set.goal_x == 20 and walker._set.goal_y == 0 and walker._set.has_goal == 1)
-- later steps read the stored goal (20, 0), whatever the centre: already at (1, 0), nothing to do.
expect("seek_antipode: at the preferred velocity", 0, 0,
  steer("seek_antipode", agent({ vx = 1, fields = { goal_x = 20, goal_y = 0, has_goal = 1 } }), { x = 99 }))
-- half a unit from the goal (20, 0) at (19.5, 0): wanted (0.5, 0), moving at 1: (0.5 - 1) / 0.25 = -2.
expect("seek_antipode: slows within `speed` of the goal", -2, 0,
  steer("seek_antipode", agent({ x = 19.5, vx = 1, fields = { goal_x = 20, goal_y = 0, has_goal = 1 } })))
-- vicsek, dt 0.1: moving (0.03, 0) with one neighbour moving (0, 0.03): their sum (0.03, 0.03) heads
-- 45 degrees; no noise (random 0.5): v_new = 0.03 (cos 45, sin 45) = (0.0212132, 0.0212132), and
-- a = (v_new - v) / dt = (-0.0878680, 0.2121320). With eta 2 and random 0.75: 0.5 rad more.
local particle = agent({ vx = 0.03 })
particle.n, particle.avx, particle.avy = 1, 0, 0.03
local h = math.sqrt(0.5) * 0.03
expect("vicsek: the mean heading, no noise", (h - 0.03) / 0.1, h / 0.1, steer("vicsek", particle, { eta = 2 }))
particle = agent({ vx = 0.03, rand = { [1] = 0.75 } })
particle.n, particle.avx, particle.avy = 1, 0, 0.03
expect("vicsek: noise eta (u - 1/2)", (0.03 * math.cos(math.pi / 4 + 0.5) - 0.03) / 0.1,
  0.03 * math.sin(math.pi / 4 + 0.5) / 0.1, steer("vicsek", particle, { eta = 2 }))
-- netlogo_flocking, dt 0.1, heading 0 at speed 1. One flock-mate 2 ahead (farther than 1) heading
-- 90 degrees: align turns 5 degrees toward it, cohere toward the direction to it (0) turns back by
-- at most 3: heading 2 degrees; a = ((cos 2, sin 2) - (1, 0)) / 0.1.
local bird = agent({ vx = 1, nb = { { 2, 0, 0, 1 } } })
expect("netlogo_flocking: align 5, cohere back 3", (math.cos(math.rad(2)) - 1) / 0.1, math.sin(math.rad(2)) / 0.1,
  steer("netlogo_flocking", bird))
-- the same flock-mate 0.5 ahead (closer than 1): separate, turning away from its heading 90 by 1.5.
bird = agent({ vx = 1, nb = { { 0.5, 0, 0, 1 } } })
expect("netlogo_flocking: separate 1.5 away", (math.cos(math.rad(-1.5)) - 1) / 0.1, math.sin(math.rad(-1.5)) / 0.1,
  steer("netlogo_flocking", bird))
-- alone and at rest: the heading's direction (1, 0) at speed 0.03: a = (0.3, 0).
expect("vicsek: alone, its own heading", 0.3, 0, steer("vicsek", agent({}), { eta = 0 }))
-- speed 2 and time 1 toward (0, 30) from (0, 0) at rest: (0, 2) / 1.
expect("seek_antipode: speed and time", 0, 2,
  steer("seek_antipode", agent({ fields = { goal_x = 0, goal_y = 30, has_goal = 1 } }), { speed = 2, time = 1 }))

-- ---- every rule returns two finite numbers, even in awkward cases -----------------------------------

world.gx, world.gy = 0, 0
local awkward = {
  agent({}),                                                                        -- still, alone
  agent({ vx = 3, nb = { { 0, 0, 1, 1 }, { 0, 0 } } }),                             -- flock-mates on top of it
  agent({ vx = 3, nb = { { 1e-9, 0 } }, grad = { 1e-12, 0 } }),                     -- nearly on top; almost flat
  agent({ vx = -1, vy = -1, nb = { { -2, -2, -1, -1 } }, grad = { 3, 4 } }),       -- steep slope
  agent({ vx = 2, obstacle = { -1, 1, 0, 1, 0 }, feeler = { 0, -1, 0, 0, 0 }, silhouette = { 0, 0, -1 } }), -- inside
}
local function counted(...)
  return select("#", ...), ...
end
for _, name in ipairs(NAMES) do
  local ok = true
  for _, a in ipairs(awkward) do
    local count, x, y = counted(steer(name, a))
    ok = ok and count == 2 and type(x) == "number" and type(y) == "number" and x == x and y == y
      and math.abs(x) < math.huge and math.abs(y) < math.huge
  end
  check(name .. ": finite in awkward cases", ok)
end

-- ---- steer allocates nothing: 10000 calls with the collector stopped --------------------------------

local busy = {
  separation = { agent({ nb = { { 1, 0 }, { 0, -1.5 } } }) },
  alignment = { agent({ vy = 4, nb = { { 5, 0, 6, 2 } } }) },
  cohesion = { crowd },
  separation_bourg = { agent({ vx = 5, nb = { { 1, 1 }, { 0, -2 }, { 1, 0 } } }) },
  alignment_bourg = { agent({ vx = 5, nb = { { 3, 3, 2, 2 } } }) },
  cohesion_bourg = { agent({ vx = 5, nb = { { 10, 10 } } }) },
  separation_gompert = { agent({ nb = { { 3, 0 }, { 0, 1 } } }), zones },
  alignment_gompert = { agent({ nb = { { 3, 0, 3, 4 } } }) },
  cohesion_gompert = { crowd },
  seek_goal = { agent({ vx = 5 }) },
  tend_to_place = { agent({}), { goal = "goal", max = 2 } },
  flee_place = { agent({}), { x = 10, radius = 20, max = 0.5 } },
  wind = { agent({}), { x = 3, y = -2 } },
  soft_bounds = { agent({ x = 195, y = 95 }) },
  terrain_drag = { agent({ vx = 1, grad = { 0.3, 0.4 } }) },
  avoid_repulsive = { agent({ vx = 5, obstacle = { 6, -1, 0, 6, 0 } }) },
  avoid_feeler = { agent({ vx = 5, feeler = { 3, -1, 0, 5, 1 } }) },
  avoid_silhouette = { agent({ vx = 6, silhouette = { 6, 8, 3.5 }, obstacle = { 3.5, -1, 0, 3.5, 0 } }, S12), nil, S12 },
  leader = { agent({ vx = 5, nb = { { 5, 6 }, { -5, 0 }, { 5, 1 } } }) },
  chase = { agent({ vx = 5, nearest = { player = { 10, 1 } }, fields = { leader = 1 } }), { leaders_only = true } },
  intercept = { agent({ vx = 10, nearest = { player = { 30, -40, 0, 10 } } }) },
  player_control = { agent({ vx = 3 }) },
  flee = { agent({ nearest = { predator = { 3, 4 } } }), { max = 0.2 } },
  evade = { agent({ nearest = { predator = { 10, 0, 0, 5 } } }) },
  scatter = { agent({ nb = { { 8, -3 }, { 12, 3 } }, nearest = { wolf = { 5, 5 } } }), { from = "wolf" } },
  bunch_up = { agent({ nb = { { 2, 0 }, { 0, 3 } }, nearest = { predator = { 30, 0 } } }) },
  predator = { agent({ nearest = { prey = { 2, 0, 0, 0, 42 } } }) },
  swarm_point = { agent({ x = 48 }) },
  follow_path = { agent({ nb = { { 3, 3 } } }) },
  refind_path = { agent({ vy = -3 }) },
  perch = { agent({ vx = 5, fields = { perch = 0, alt = 10 } }) },
  wander = { agent({ vx = 5 }) },
  avoid_flock = { agent({ vx = 5, nearest = { aqua = { 8, 6 } } }), { other = "aqua" } },
  gate_pass = { agent({}) },
  follow_flow = { agent({ vx = 5 }) },
  stay_inside = { agent({ x = 48, vx = 5 }) },
  follow_wall = { agent({ vx = 5, obstacle = { 4, 0, -1, 0, 4 } }) },
  queue = { agent({ vx = 4, nb = { { 2.5, 0, 1, 0 }, { 2, 2 } } }) },
  interpose = { agent({ nearest = { vip = { 2, 0, 1, 0 }, threat = { 2, 2 } } }) },
  hide = { agent({ nearest = { threat = { -10, 0 } }, circles = { { 10, 0, 2 }, { 0, 5, 1 } } }) },
  avoid_unaligned = { agent({ vx = 2, nb = { { 4, -4.5, 0, 2 }, { 5, -4, 0, 2 } } }) },
  formation = { agent({ id = 5, vx = 5, fields = { follows = 3, lead_hx = 1 }, nb = { { -5, 0, 5, 0, id = 8 },
    { 5, 2, 5, 1, id = 3, leader = 1 }, { -9, 3, 5, 0, id = 9 } } }), { shape = "circle" } },
  pursue_path = { agent({ vx = 2 }) },
  seek_antipode = { agent({ vx = 0.5, fields = { goal_x = 20, goal_y = 5, has_goal = 1 } }) },
  vicsek = { agent({ vx = 0.03, nb = { { 0.5, 0, 0, 0.03 } } }) },
  netlogo_flocking = { agent({ vx = 1, nb = { { 2, 0, 0, 1 }, { 0, 2, 1, 0 } } }) },
  follow_route = { agent({ vx = 1, route = { 0, 5, 2 } }), { x = 10 } },
}
local function allocated(f, a, p, s)
  f(a, p, s) -- warm up: the first call may grow the Lua stack
  collectgarbage("collect")
  collectgarbage("stop")
  local before = collectgarbage("count")
  for _ = 1, 10000 do
    f(a, p, s)
  end
  return collectgarbage("count") - before
end

for _, name in ipairs(NAMES) do
  local case = busy[name]
  local ok, grown = pcall(allocated, R[name].steer, case[1], P(name, case[2]), case[3] or S)
  collectgarbage("restart")
  check(name .. ": steer allocates nothing", ok and grown < 0.5,
    ok and string.format("%.2f KB over 10000 calls", grown) or tostring(grown))
end

print(string.format("%d passed, %d failed", passed, failed))
if failed > 0 then
  os.exit(1)
end
