-- tests/rules_test.lua — what the rule tests in real worlds cannot check yet: allocation, preset fields and random draws, the steering library.
-- Run from the repository root:  lua5.4 tests/rules_test.lua
-- Each module is loaded into a sandbox like the engine's (no os, io, require; no new globals), and
-- called with a mock agent view, mock fb functions and a mock species. Expected values are worked
-- out by hand in the comments. Exits with status 1 if anything fails.
--
-- This mock is being replaced by behaviours/tests/*_test.lua (flockbox test, real worlds the engine
-- builds); what is left here needs the mock, for now:
--   - "steer allocates nothing": the engine does not count a rule's Lua allocations;
--   - cases that start from per-agent field values (evade's fleeing, predator's resting, wander's
--     angle, formation's election memory and leader turn, chase's leaders_only) or from a chosen
--     random draw (wander, perch): a scenario cannot set a field or a draw;
--   - the steering library's own functions (offset_pursuit, from_local, nearest_approach);
--   - the worked cases of the 24 rules tested in real worlds before this mock's cases began moving
--     (the Parker, Bourg and Gompert trios, seek_goal, places, wind, bounds, terrain drag, obstacle
--     avoidance, chase, intercept, flee, evade, predator, wander): still to be moved.
-- Header lines, loading with the defaults, and finite steering in awkward cases are checked for
-- every rule by behaviours/tests/every_rule_test.lua.

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

-- follow_route: at rest at the origin, speed 1, time 0.25. The goal (10, 0) in sight: w = (1, 0)
-- (the offset cut to the speed), a = w / 0.25. A waypoint (0, 5) with more after it: full speed toward
-- it. No way there: nothing. The goal 0.5 away on the last leg: w = the offset, slowing down.
expect("follow_route: the goal in sight", 4, 0, steer("follow_route", agent({}), { x = 10 }))
expect("follow_route: toward the next waypoint", 0, 4, steer("follow_route", agent({ route = { 0, 5, 2 } }), { x = 10 }))
expect("follow_route: no way there", 0, 0, steer("follow_route", agent({ route = false }), { x = 10 }))
expect("follow_route: slows onto the goal", 2, 0, steer("follow_route", agent({}), { x = 0.5 }))

-- steering.nearest_approach: (4, -4.5) closing at (-2, 2): t = 2.125, q = (-0.25, -0.25), |q| = 0.3536.
do
  local t, qx, qy, d = steering.nearest_approach(4, -4.5, -2, 2, 3)
  check("steering.nearest_approach", close(t, 2.125) and close(qx, -0.25) and close(qy, -0.25) and close(d, math.sqrt(0.125)))
  t, qx = steering.nearest_approach(4, 0, 1, 0, 3)
  check("steering.nearest_approach: drawing away is nearest now", t == 0 and qx == 4)
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
