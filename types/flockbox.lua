---@meta flockbox
-- types/flockbox.lua — what flockbox's rules and scenarios see, for lua-language-server: written by
-- `flockbox --lua-types` from the engine's tables (do not edit; tests/cli_lua_types.sh checks it).

---The agent view `a`, a rule's first argument: the agent's own values as fields (read by name:
---the view is filled lazily), declared per-agent fields by their names, and its queries as methods.
---Queries answer the offset (dx, dy) from the agent first, then the distance, then the rest.
---@class fbAgentView
---@field x number position, world units
---@field y number position, world units
---@field vx number velocity, units/s
---@field vy number velocity, units/s
---@field hx number unit heading (kept when the agent stops); its right side is (-hy, hx)
---@field hy number unit heading (kept when the agent stops)
---@field cx number the perceived flock-mates' centre; its own position when n == 0
---@field cy number the perceived flock-mates' centre; its own position when n == 0
---@field avx number the perceived flock-mates' mean velocity; 0 when n == 0
---@field avy number the perceived flock-mates' mean velocity; 0 when n == 0
---@field sx number Parker's separation sum: own minus their position over those nearer than the separation radius
---@field sy number Parker's separation sum: own minus their position over those nearer than the separation radius
---@field nearest_dist number distance to the nearest perceived flock-mate (math.huge if none)
---@field energy number energy spent so far (Gompert's Figure 7 measure)
---@field speed number |v|, units/s
---@field n integer how many flock-mates it perceives (vision radius, field of view, the species it sees)
---@field id integer the agent's id (from 1, never reused)
---@field [string] number a declared per-agent field (fields = { name = 0 }), as at the start of the step
local fbAgentView = {}

---the k-th perceived flock-mate, k = 1..a.n (storage order, nearest not first)
---@param k integer
---@return number dx
---@return number dy
---@return number dist
---@return number vx
---@return number vy
---@return integer id
function fbAgentView:neighbour(k) end

---a declared field of the k-th perceived flock-mate
---@param k integer
---@param name string
---@return number value
function fbAgentView:neighbour_field(k, name) end

---a declared field, as a.name reads it
---@param name string
---@return number value
function fbAgentView:get(name) end

---write a declared field's value for the next step
---@param name string
---@param value number|boolean
function fbAgentView:set(name, value) end

---a uniform number in [0, 1) from (seed, id, step, stream): the same on any thread count
---@param stream? integer
---@return number u
function fbAgentView:random(stream) end

---hold the agent still this step (Parker's perching): the rules after this one do not run for it
function fbAgentView:hold() end

---height and gradient under the agent
---@return number h
---@return number gx
---@return number gy
function fbAgentView:terrain() end

---the nearest agent of a species within radius, all round (math.huge: anywhere); nil if none
---@param species string
---@param radius number
---@return number? dx
---@return number? dy
---@return number? dist
---@return number? vx
---@return number? vy
---@return integer? id
function fbAgentView:nearest_agent(species, radius) end

---the older name of a:nearest_agent: the same results
---@deprecated
---@param species string
---@param radius number
---@return number? dx
---@return number? dy
---@return number? dist
---@return number? vx
---@return number? vy
---@return integer? id
function fbAgentView:nearest(species, radius) end

---offset to the closest obstacle surface point, its distance, the outward normal there; nil if none in range
---@param range number
---@return number? dx
---@return number? dy
---@return number? dist
---@return number? nx
---@return number? ny
function fbAgentView:nearest_obstacle(range) end

---how many other agents within radius are ahead and at most front times as far to the side (Bourg's narrow view)
---@param radius number
---@param front number
---@param species? string
---@param skip_player? boolean
---@return integer n
function fbAgentView:count_in_front(radius, front, species, skip_player) end

---where a feeler along the heading meets an obstacle grown by pad, the normal there, the offset to its centre; nil if clear (Bourg)
---@param length number
---@param pad? number
---@return number? dx
---@return number? dy
---@return number? dist
---@return number? nx
---@return number? ny
---@return number? cx
---@return number? cy
function fbAgentView:cast_feeler(length, pad) end

---offset to the point just past the nearest silhouette edge of the obstacle ahead, and its distance; nil if none (Gompert 6.2; comfort: a tree beyond two radii seen that many times as wide, his 1.3)
---@param range number
---@param pad? number
---@param comfort? number
---@return number? dx
---@return number? dy
---@return number? dist
function fbAgentView:silhouette_edge(range, pad, comfort) end

---Reynolds' hiding spot from a threat at offset (tx, ty), behind the obstacle in range nearest the agent; nil if none
---@param tx number
---@param ty number
---@param range number
---@param gap? number
---@return number? dx
---@return number? dy
---@return number? dist
---@return number? cx
---@return number? cy
function fbAgentView:hiding_spot(tx, ty, range, gap) end

---remove an agent after the step (a catch; counted once)
---@param id integer
function fbAgentView:remove(id) end

---the scenario's flow field where the agent is (Reynolds 1999)
---@param name string
---@return number vx
---@return number vy
function fbAgentView:flow(name) end

---where the agent stands in a region: offset to its nearest edge point, distance, inward normal, inside
---@param name string
---@return number dx
---@return number dy
---@return number dist
---@return number nx
---@return number ny
---@return boolean inside
function fbAgentView:region(name) end

---offset to the next waypoint of a shortest path round the obstacles to (x, y) (A* on a grid, pulled taut), the path's length left, its waypoints left; nil if unreachable
---@param x number
---@param y number
---@return number? dx
---@return number? dy
---@return number? dist
---@return integer? n
function fbAgentView:route(x, y) end

---The species table `s`, a rule's third argument (s.dt, s.width, s.height, s.wraps: older spellings
---of fb.world's).
---@class fbSpecies
---@field name string the species' name
---@field max_speed number units/s
---@field min_speed number units/s
---@field max_accel number units/s^2
---@field cruise_speed number units/s
---@field body_length number world units (the body's radius is half of it)
---@field radius number vision radius, world units
---@field fov number field of view, degrees (0..360)
---@field separation number separation radius, world units

---fb.world, the same in rules and scenarios (fb.world() is the older spelling: width, height, wraps).
---@class fbWorld
---@field width number world units
---@field height number world units
---@field wraps boolean true when the world wraps round (bounds = "wrap")
---@field dt number seconds per step

---One agent as a scenario's function sees it (fb.agents, fb.find): a snapshot; declared fields by name.
---@class fbAgentRecord
---@field id integer the agent's id (from 1, never reused)
---@field species string its species' name
---@field x number position, world units
---@field y number position, world units
---@field vx number velocity, units/s
---@field vy number velocity, units/s
---@field hx number unit heading
---@field hy number unit heading
---@field speed number |v|, units/s
---@field energy number energy spent so far
---@field [string] number a declared per-agent field

---The `fb` of a rule.
---@class fbRuleFb
---@field world fbWorld the world's size, bounds and step (read only)
local fbRuleFb = {}

---height and gradient anywhere (also in scenarios)
---@param x number
---@param y number
---@return number h
---@return number gx
---@return number gy
function fbRuleFb.terrain(x, y) end

---the path object of a scenario path: its place, unit tangent and speed (units/s); nil if none (also in scenarios)
---@param name string
---@return number? x
---@return number? y
---@return number? tx
---@return number? ty
---@return number? speed
function fbRuleFb.path(name) end

---the player's steering input, each in [-1, 1] (also in scenarios)
---@return number x
---@return number y
function fbRuleFb.input() end

---the step (in a rule: the one being computed) and its time in seconds (also in scenarios)
---@return integer step
---@return number time
function fbRuleFb.time() end

---a flow field's velocity at any point (as a:flow) (also in scenarios)
---@param name string
---@param x number
---@param y number
---@return number vx
---@return number vy
function fbRuleFb.flow(name, x, y) end

---where (x, y) stands in a region: offset to its nearest edge point, distance, inward normal, inside (as a:region) (also in scenarios)
---@param name string
---@param x number
---@param y number
---@return number dx
---@return number dy
---@return number dist
---@return number nx
---@return number ny
---@return boolean inside
function fbRuleFb.region(name, x, y) end

---a goal's place; nil if there is no such goal (also in scenarios)
---@param name string
---@return number? x
---@return number? y
function fbRuleFb.goal(name) end

---The `fb` of a scenario's functions (on_step, on_key, metrics).
---@class fbHookFb
---@field world fbWorld the world's size, bounds and step (read only)
local fbHookFb = {}

---height and gradient anywhere (also in rules)
---@param x number
---@param y number
---@return number h
---@return number gx
---@return number gy
function fbHookFb.terrain(x, y) end

---the path object of a scenario path: its place, unit tangent and speed (units/s); nil if none (also in rules)
---@param name string
---@return number? x
---@return number? y
---@return number? tx
---@return number? ty
---@return number? speed
function fbHookFb.path(name) end

---the player's steering input, each in [-1, 1] (also in rules)
---@return number x
---@return number y
function fbHookFb.input() end

---the step (in a rule: the one being computed) and its time in seconds (also in rules)
---@return integer step
---@return number time
function fbHookFb.time() end

---a flow field's velocity at any point (as a:flow) (also in rules)
---@param name string
---@param x number
---@param y number
---@return number vx
---@return number vy
function fbHookFb.flow(name, x, y) end

---where (x, y) stands in a region: offset to its nearest edge point, distance, inward normal, inside (as a:region) (also in rules)
---@param name string
---@param x number
---@param y number
---@return number dx
---@return number dy
---@return number dist
---@return number nx
---@return number ny
---@return boolean inside
function fbHookFb.region(name, x, y) end

---a goal's place (nil if none); with x, y: the older spelling of fb.set_goal (also in rules)
---@param name string
---@param x? number
---@param y? number
---@return number? x
---@return number? y
function fbHookFb.goal(name, x, y) end

---how many agents (of a species) (not in rules)
---@param species? string
---@return integer n
function fbHookFb.count(species) end

---an iterator over the agents (of a species) in id order, each a record: for a in fb.agents("herd") do ... end (not in rules)
---@param species? string
---@return fun(): fbAgentRecord? next
function fbHookFb.agents(species) end

---the mean position of the agents (of a species) and how many (nil, nil, 0 for none) (not in rules)
---@param species? string
---@return number? x
---@return number? y
---@return integer n
function fbHookFb.centre(species) end

---the mean of x, y, vx, vy, hx, hy, speed, energy or a declared field over the agents (nil, 0 for none) (not in rules)
---@param key string
---@param species? string
---@return number? mean
---@return integer n
function fbHookFb.mean(key, species) end

---the closest two agents, one of each species (two of one species without other), as they stand now; nil if none (not in rules)
---@param species string
---@param other? string
---@return number? distance
---@return integer? id
---@return integer? other_id
function fbHookFb.closest(species, other) end

---how many pairs of agents are closer than distance: one of each species, two of one, or of all; each pair once (not in rules)
---@param distance number
---@param species? string
---@param other? string
---@return integer count
function fbHookFb.close_pairs(distance, species, other) end

---fb.agents without a new record per agent: one record, refilled at each agent (copy what you keep); allocates nothing once warm (not in rules)
---@param species? string
---@return fun(): fbAgentRecord? next
function fbHookFb.each(species) end

---one agent's record, or nil when it is gone (not in rules)
---@param id integer
---@return fbAgentRecord? record
function fbHookFb.find(id) end

---add an agent between steps (not in rules)
---@param species string
---@param x number
---@param y number
---@param vx? number
---@param vy? number
function fbHookFb.spawn(species, x, y, vx, vy) end

---remove an agent between steps (not in rules)
---@param id integer
function fbHookFb.remove(id) end

---change a rule's weight (not in rules)
---@param species string
---@param rule string
---@param weight number
function fbHookFb.set_weight(species, rule, weight) end

---change a rule's parameter, checked against its range (not in rules)
---@param species string
---@param rule string
---@param name string
---@param value number
function fbHookFb.set_param(species, rule, name, value) end

---move a goal, or make one (not in rules)
---@param name string
---@param x number
---@param y number
function fbHookFb.set_goal(name, x, y) end

---the path object moves at speed units/s from now on; nil hands the speed back to its table (not in rules)
---@param name string
---@param speed number?
function fbHookFb.set_path_speed(name, speed) end

---a route field's goal moves to (x, y) and the field is solved again now; the cells it reaches (not in rules)
---@param name string
---@param x number
---@param y number
---@return integer cells
function fbHookFb.route_to(name, x, y) end

---catches so far (not in rules)
---@return integer n
function fbHookFb.catches() end

---the player's steering input, as the arrow keys give it (not in rules)
---@param x number
---@param y number
function fbHookFb.set_input(x, y) end

---end the run after this step with an outcome label (letters, digits, _ and -); the first call wins (not in rules)
---@param label string
function fbHookFb.stop(label) end

---the older spelling: the k-th agent (1..fb.count(), storage order) (not in rules)
---@deprecated
---@param k integer
---@return integer id
---@return string species
---@return number x
---@return number y
---@return number vx
---@return number vy
---@return number energy
function fbHookFb.agent(k) end

---the older spelling: the k-th agent's declared field (not in rules)
---@deprecated
---@param k integer
---@param name string
---@return number value
function fbHookFb.field(k, name) end

---the older spelling of fb.time (not in rules)
---@deprecated
---@return integer step
---@return number time
function fbHookFb.step() end

---In a rule: fbRuleFb; in a scenario's functions: fbHookFb. Each function says where it exists.
---@type fbRuleFb|fbHookFb
fb = {}

---A declared parameter: { default, min = .., max = .., help = "..", circle = true } (docs/writing-rules.md)
---@class fbParamDecl
---@field [1] number|string|boolean the default
---@field min? number the lowest value a scenario, --set, a hook or the panel may give
---@field max? number the highest
---@field help? string one line: what it is, in which units
---@field circle? boolean a distance from the agent, drawn round the selected agent
---@field integer? boolean a count: a fraction is refused, the rule gets a Lua integer

---What a rule file returns (rules.c, params.c read these keys).
---@class fbRule
---@field params? table<string, number|string|boolean|fbParamDecl> the rule's parameters and defaults
---@field fields? table<string, number> per-agent fields and their initial values
---@field steer fun(a: fbAgentView, p: table<string, any>, s: fbSpecies): number, number the acceleration, units/s^2
---@field validate? fun(p: table<string, any>, s: fbSpecies): string?, string? nil, or a parameter name and a message

---A scenario's functions (hooks.c reads these keys; the world's description: docs/scenarios.md).
---@class fbScenarioHooks
---@field on_step? fun(step: integer) after each step
---@field on_key? fun(key: string) a key pressed in the window
---@field metrics? { [1]: string, [2]: fun(): number }[] extra CSV columns

---A scenario file's table (docs/scenarios.md): put `---@type fbScenario` on the table it returns.
---@class fbScenario
---@field name? string shown in the window's title and the summary
---@field view? number[] x, y, width: the part of the world the window shows first (default the whole world)
---@field description? string what it shows, in the window's About tab (default: the file's header comment)
---@field world? fbScenarioWorld the world table
---@field terrain? fbScenarioTerrain the terrain table
---@field obstacles? ({ circle: number[] }|{ polygon: number[][] })[] { circle = {x, y, r} }, { polygon = { {x, y}, ... } } or { png = "plan.png", cell = c }: a floor plan's dark pixels
---@field goals? table<string, number[]> name = {x, y}
---@field paths? fbScenarioPath[] { { name = ..., points = { {x, y}, ... }, closed = ..., speed = ..., start = ... }, ... }
---@field flow_fields? table<string, fbScenarioFlowField> NAME = { png = ..., speed = ... } or { fn = function(x, y) return vx, vy end, cell = ... }
---@field regions? table<string, number[][]> NAME = { {x, y}, ... }: a polygon, convex or not
---@field behaviours? string[] the scenario's own rule folders
---@field species? fbScenarioSpecies[] a list of species
---@field on_step? fun(step: integer) function(step) after each step
---@field on_key? fun(key: string) function(key) for keys the window does not use
---@field metrics? { [1]: string, [2]: fun(): number }[] { {"column", function() return number end}, ... }

---The `world` table of fbScenario.
---@class fbScenarioWorld
---@field width? number world units
---@field height? number world units
---@field dt? number seconds per step
---@field bounds? "wrap"|"clamp" wrap (a torus) or clamp (walls)
---@field update? "euler"|"semi_implicit" euler: move by the old velocity (Gompert); semi_implicit: by the new one (Parker)
---@field collision_iterations? integer passes per step pushing overlapping bodies apart

---The `terrain` table of fbScenario.
---@class fbScenarioTerrain
---@field png? string greyscale heightfield, 8 or 16 bits
---@field height? number world units: the height of white
---@field generate? number seed of smooth random hills
---@field feature? number world units across a generated hill
---@field samples? integer generated samples per side

---One species of a scenario's `species` list.
---@class fbScenarioSpecies
---@field name? string how rules, --set and hooks name it
---@field count? integer agents spawned at the start
---@field spawn? fbScenarioSpeciesSpawn the spawn table
---@field agents? number[][] agents placed by hand: { {x, y, vx, vy}, ... }
---@field body_length? number world units
---@field max_speed? number units/s
---@field min_speed? number units/s
---@field cruise_speed? number units/s (default 0.7 max_speed)
---@field max_accel? number units/s^2 (default 2 max_speed)
---@field max_turn? number degrees per second (default unlimited)
---@field drag? "exact"|"gompert" how its drag = true rules act: exact (solved over the step, the same at any dt) or gompert (his appendix: explicit, summed between steering updates; depends on dt)
---@field half_accel? boolean add 1/2 a dt^2 to the position
---@field slope_correction? boolean move by v / sqrt(s^2 + 1) on slopes
---@field vision? fbScenarioSpeciesVision the vision table
---@field accumulator? "weighted"|"prioritised"|"exclusive"|"strict"|"prioritized" how its rules combine (docs/rules.md, Combiners)
---@field update_every? integer steps between steering updates (Gompert 8.2)
---@field player? boolean driven by the arrow keys
---@field collide? boolean a solid body of radius body_length / 2, pushed apart from others (Gompert 8.1)
---@field draw_size? number the smallest length the window draws an agent at, pixels (default 9: a predator may ask for more)
---@field colour? number[] red, green, blue
---@field orca? boolean|fbScenarioSpeciesOrca true (or a table of the orca fields): ORCA reciprocal collision avoidance after the rules (docs/steering-orca.md)
---@field rules? (string|fbScenarioRule)[] { "rule", weight = 1, params = {...} }, ...

---The `spawn` table of fbScenarioSpecies.
---@class fbScenarioSpeciesSpawn
---@field area? number[] x0, y0, x1, y1 (default: the world)
---@field around? number[] x, y, r: a disc instead of the area
---@field speed? number|number[] units/s, or {min, max} (default 0 to the cruising speed)
---@field heading? number degrees, 0 = +x, 90 = +y (default random)

---The `vision` table of fbScenarioSpecies.
---@class fbScenarioSpeciesVision
---@field radius? number world units
---@field fov? number degrees, the full angle of view
---@field separation? number comfort radius, world units (default 2 body lengths)
---@field sees? string[] species counted as flock-mates (default its own)
---@field sample? integer flock-mates beyond the separation radius perceived, drawn at random each step; the closer ones always (Gamlen; 0: all)
---@field sampling? "exact"|"gamlen" how vision.sample draws: exact (k of those in view, uniformly; tests every candidate first) or gamlen (his Monte Carlo: k looks at flock-mates within the radius along each axis, those in view perceived: work that does not grow with the density, fewer perceived)

---The `orca` table of fbScenarioSpecies.
---@class fbScenarioSpeciesOrca
---@field time_horizon? number seconds: collisions with agents avoided this far ahead (tau)
---@field obstacle_horizon? number seconds: collisions with obstacles avoided this far ahead (tau_o)
---@field neighbours? integer the nearest agents avoided
---@field distance? number world units: agents farther than this are not avoided
---@field keep_right? number degrees: an agent that must give way aims this far to the right of its preferred velocity (negative: left; 0: the paper's), which breaks symmetric jams
---@field layers? integer bit set: the avoidance layers it is on (Godot's avoidance_layers; default 1)
---@field mask? integer bit set: it avoids an agent only if this meets that agent's layers (Godot's avoidance_mask; default 1)
---@field priority? number against an agent of lower priority it takes no share of the avoidance and the other all of it (default 0: half each)
---@field standing_speed? number units/s: an agent slower than this stands (at its goal) and yields to every moving one, whatever the priorities (0: off)
---@field patience? number seconds: an agent blocked (under half its preferred velocity made good) this long waits, then tries again (0: never)

---One rule slot of a species' `rules`: { "cohesion", weight = 2, params = { ... } }.
---@class fbScenarioRule
---@field [1]? string the same as `rule`
---@field rule? string the module, behaviours/<rule>.lua
---@field name? string how --set and hooks name it (default: the module)
---@field weight? number multiplies or scales its output
---@field force? boolean added after the accumulator, as a physical force
---@field drag? boolean a linear drag -k (v . n) n, integrated exactly (Gompert's terrain drag)
---@field preempt? boolean accumulator "strict": when it acts, no other rule counts (Gamlen 3.6)
---@field params? table<string, number|string|boolean> overrides of the module's params

---One path of a scenario's `paths`, with the object that moves along it.
---@class fbScenarioPath
---@field name? string how rules (fb.path) and hooks name it
---@field points? number[][] control points { {x, y}, ... }: 2 or more, 3 or more when closed
---@field closed? boolean a loop (default false: the object stops at the last point)
---@field speed? number|number[][] units/s, or { {time, speed}, ... } linear in time (default 0)
---@field start? number where the object starts, a fraction of the length

---One field of a scenario's `flow_fields`: a PNG, a function, or a route.
---@class fbScenarioFlowField
---@field png? string a PNG: red = x, green = y, 128 = 0, stretched over the world
---@field speed? number units/s of full red or green (a PNG field)
---@field fn? fun(x: number, y: number): number, number function(x, y) return vx, vy end, sampled when the scenario loads
---@field cell? number world units between a function's samples (default: 64 across the shorter side)
---@field route? fbScenarioRoute { to = {x, y} or { {x, y}, ... } or "REGION", ... }: a route to the goal, computed by the engine

---A flow field's `route`: the engine computes the field from the goal.
---@class fbScenarioRoute
---@field to? number[]|number[][]|string the goal: {x, y}, several { {x, y}, ... }, or a region's name
---@field cell? number world units a grid cell (default: 64 across the shorter side)
---@field clearance? number units kept from walls (default: the largest body radius of the species)
---@field speed? number the field's speed, units/s (default: the largest cruise speed of the species)
---@field cost? "distance"|"energy"|fun(x: number, y: number): number "distance" (default), "energy" (over the terrain) or function(x, y) return cost per unit length end
---@field inside? string a region the route keeps inside (its outside is a wall)
---@field walls? string[] { "REGION", ... }: regions the route keeps out of

---The steering library every rule gets as `steering` (behaviours/lib/steering.lua): vectors go in
---and come out as separate numbers, never tables.
---@class fbSteering
steering = {}

--- Gompert eq. 5-6, a cruising arrival: the wanted velocity is the offset itself (as if to get
--- there in one second) but at most `speed`, so the agent cruises from afar and slows down over the
--- last `speed` units instead of overshooting (Reynolds' arrive, with a slowing distance of one
--- second at that speed).
---@param gain? number
---@return number ax, number ay
---@param a fbAgentView
---@param s fbSpecies
---@param dx number
---@param dy number
---@param speed number
function steering.arrive(a, s, dx, dy, speed, gain) end

--- Gompert's steering (appendix A): a wish expressed as a fraction of the maximum acceleration,
--- its length capped at 1, becomes an acceleration: fraction * max_accel.
---@return number ax, number ay
---@param fx number
---@param fy number
---@param s fbSpecies
function steering.capped(fx, fy, s) end

--- Bourg's closing time: |s12| / |v_rel| for a target at distance `dist` moving at (rvx, rvy)
--- relative to the agent, capped at `horizon` seconds (a target moving exactly as the agent never
--- closes in).
---@return number t
---@param dist number
---@param rvx number
---@param rvy number
---@param horizon number
function steering.closing_time(dist, rvx, rvy, horizon) end

--- The z of the 3D cross product: > 0 when b lies to the right of a (y-down world).
---@return number z
---@param ax number
---@param ay number
---@param bx number
---@param by number
function steering.cross(ax, ay, bx, by) end

--- a . b
---@return number dot
---@param ax number
---@param ay number
---@param bx number
---@param by number
function steering.dot(ax, ay, bx, by) end

--- Reynolds' evade: flee the predicted position (from where it is if it will be right here).
---@param speed? number
---@param gain? number
---@return number ax, number ay
---@param a fbAgentView
---@param s fbSpecies
---@param dx number
---@param dy number
---@param dist number
---@param tvx number
---@param tvy number
---@param horizon number
function steering.evade(a, s, dx, dy, dist, tvx, tvy, horizon, speed, gain) end

--- Reynolds' flee: straight away from the offset (dx, dy) at `speed` (default: max speed).
---@param speed? number
---@param gain? number
---@return number ax, number ay
---@param a fbAgentView
---@param s fbSpecies
---@param dx number
---@param dy number
function steering.flee(a, s, dx, dy, speed, gain) end

--- A push given as a parameter where 0 means "as hard as the species can": p.force or max_accel.
---@return number force
---@param force number
---@param s fbSpecies
function steering.force_or_max(force, s) end

--- The world vector of a vector given in the frame of a unit heading (hx, hy): `ahead` along the
--- heading and `right` along its right side (-hy, hx). The inverse of right_of.
---@return number x, number y
---@param hx number
---@param hy number
---@param ahead number
---@param right number
function steering.from_local(hx, hy, ahead, right) end

--- |(x, y)|
---@return number len
---@param x number
---@param y number
function steering.length(x, y) end

--- Gompert eq. 5-6: steer the velocity toward (wx, wy). The difference, over half the maximum speed
--- and times gain, is the fraction of max_accel asked for (capped at 1): an agent at rest wanting
--- full speed asks for all it has.
---@return number ax, number ay
---@param a fbAgentView
---@param s fbSpecies
---@param wx number
---@param wy number
---@param gain number
function steering.match_velocity(a, s, wx, wy, gain) end

--- Reynolds 1999, "Unaligned collision avoidance": the time of nearest approach of another agent at
--- offset d = (dx, dy) moving at (rvx, rvy) relative to this one. Its offset at time t is d + rv t,
--- whose squared length is least at  t = -(d . rv) / |rv|^2,  held within [0, horizon] (an agent
--- drawing away is nearest now; one that never closes within the horizon, at the horizon).
--- Returns t and the offset (qx, qy) and distance then.
---@return number t, number qx, number qy, number dist
---@param dx number
---@param dy number
---@param rvx number
---@param rvy number
---@param horizon number
function steering.nearest_approach(dx, dy, rvx, rvy, horizon) end

--- (x, y) / |(x, y)| and |(x, y)|; (0, 0, 0) for the zero vector.
---@return number ux, number uy, number len
---@param x number
---@param y number
function steering.normalise(x, y) end

--- Reynolds' offset pursuit (Steering Behaviors For Autonomous Characters, GDC 1999, "Offset
--- Pursuit"), arriving at the point instead of passing it. The target is a point fixed in a
--- leader's local frame: (ahead, right) from the leader, rotated by the leader's unit heading
--- (hx, hy), o = from_local(hx, hy, ahead, right). With the leader at offset (dx, dy) from the agent
--- and moving at v_L = (lvx, lvy), the slot is at the offset q0 = (dx, dy) + o now. Reynolds aims at
--- where it will be T seconds on; the slot moves with the leader and, when the leader turns at
--- `turn` rad/s (optional, clockwise on screen positive), swings round it at turn * perp(o):
---   q = q0 + T v_s,   v_s = v_L + turn * perp(o).
--- The wanted velocity is the one that gets there in those T seconds,
---   w = q / T = v_s + q0 / T,   capped at `speed` (default max_speed),
--- so far away the agent pursues flat out and, near the slot, matches the slot's own velocity plus
--- a correction that shrinks with the distance: it arrives without overshooting and then holds the
--- slot with no steady error, in a turn too. w is steered to by match_velocity (Gompert eq. 5-6),
--- whose gain 2 gain max_accel / max_speed (4 gain /s at Gompert's max_accel = 2 max_speed) makes
--- the error e'' + 4e' + 4e/T = 0 critically damped at T = 1 s. All per second: the same at any dt.
---@param speed? number
---@param gain? number
---@param turn? number
---@return number ax, number ay
---@param a fbAgentView
---@param s fbSpecies
---@param dx number
---@param dy number
---@param lvx number
---@param lvy number
---@param hx number
---@param hy number
---@param ahead number
---@param right number
---@param T number
function steering.offset_pursuit(a, s, dx, dy, lvx, lvy, hx, hy, ahead, right, T, speed, gain, turn) end

--- (x, y) turned a quarter to the right: (-y, x).
---@return number x, number y
---@param x number
---@param y number
function steering.perp(x, y) end

--- Where a target at offset (dx, dy), distance dist, moving at (tvx, tvy), will be when the agent
--- could reach it: its offset after the closing time (Bourg's intercept aim point s1).
---@return number qx, number qy
---@param a fbAgentView
---@param dx number
---@param dy number
---@param dist number
---@param tvx number
---@param tvy number
---@param horizon number
function steering.predict(a, dx, dy, dist, tvx, tvy, horizon) end

--- Reynolds' pursue and evade: seek or flee the predicted position instead of the present one.
---@param speed? number
---@param gain? number
---@return number ax, number ay
---@param a fbAgentView
---@param s fbSpecies
---@param dx number
---@param dy number
---@param dist number
---@param tvx number
---@param tvy number
---@param horizon number
function steering.pursue(a, s, dx, dy, dist, tvx, tvy, horizon, speed, gain) end

--- The parts of the offset (dx, dy) along the right side r = (-hy, hx) of a unit heading (hx, hy)
--- and along the heading: > 0 to the right and ahead.
---@return number side, number ahead
---@param hx number
---@param hy number
---@param dx number
---@param dy number
function steering.right_of(hx, hy, dx, dy) end

--- (x, y) turned by angle radians toward +y (clockwise on screen).
---@return number x, number y
---@param x number
---@param y number
---@param angle number
function steering.rotate(x, y, angle) end

--- Reynolds' seek: toward the offset (dx, dy) at `speed` (default: the species' max speed).
---@param speed? number
---@param gain? number
---@return number ax, number ay
---@param a fbAgentView
---@param s fbSpecies
---@param dx number
---@param dy number
function steering.seek(a, s, dx, dy, speed, gain) end

--- Bourg's chase and intercept: a push of `force` along the unit's right side r = (-hy, hx), toward
--- the side the offset (dx, dy) is on (dead behind counts as right). Within `settle` degrees of the
--- line to it the push shrinks in proportion to the angle, so the unit holds the line instead of
--- flicking from side to side (settle = 0: Bourg's bang-bang). Nothing when it is dead ahead.
---@return number ax, number ay
---@param a fbAgentView
---@param dx number
---@param dy number
---@param force number
---@param settle number
function steering.side_steer(a, dx, dy, force, settle) end

--- Parker's pseudocode has no clock: a velocity is "how far the boid moves per time step", and a
--- rule adds a velocity change to it every step. Taken as happening at a reference step T seconds
--- long, a per-step change dv_step of a per-step velocity is, in world units and seconds,
---   v = v_step / T   and   a = dv / T = dv_step / T^2.
--- So a rule that adds a share 1/divisor of a position offset d each step (rule 1, tend_to_place)
--- is the acceleration  a = d / (divisor T^2),  the same whatever the engine's dt: at dt = T one
--- engine step is one of Parker's, and smaller steps converge to the same motion. A rule that adds
--- a share of a velocity difference (rule 3) needs one factor of T only (steering.tend_velocity).
--- Every Parker rule names its T as the parameter `step` (0.05 s: Parker's frame at 20 per second,
--- the demos' dt). With max > 0 the result's length is capped at max.
---@param max? number
---@return number ax, number ay
---@param dx number
---@param dy number
---@param divisor number
---@param step number
function steering.tend(dx, dy, divisor, step, max) end

--- Parker's per-step share 1/divisor of a velocity difference (dvx, dvy) (rule 3) at the reference
--- step T:  a = dv / (divisor T).
---@return number ax, number ay
---@param dvx number
---@param dvy number
---@param divisor number
---@param step number
function steering.tend_velocity(dvx, dvy, divisor, step) end

--- (x, y) scaled down to length max when it is longer (Parker's limit_velocity).
---@return number x, number y
---@param x number
---@param y number
---@param max number
function steering.truncate(x, y, max) end

--- Bourg's alignment and cohesion: a sideways push toward the unit direction (ux, uy), in
--- proportion to the angle between it and the heading: force * angle / pi along the right side
--- when (ux, uy) lies to the right, along the left otherwise. Nothing when aligned already or
--- exactly opposite (no side to prefer).
---@return number ax, number ay
---@param a fbAgentView
---@param ux number
---@param uy number
---@param force number
function steering.turn_toward(a, ux, uy, force) end

--- Reynolds' wander: a direction that drifts off the heading by a random walk. angle is the drift
--- so far (radians, kept by the rule in a per-agent field), u a uniform number in [0, 1) from
--- a:random; returns the new drift, and the unit direction heading + drift.
--- A random walk's spread after a time t is sqrt(steps) times its step, so for the spread not to
--- depend on dt the step must shrink as sqrt(dt): each step adds (2u - 1) rate sqrt(dt step), where
--- rate is the drift per second at the reference step `step` (seconds; dt when not given). The
--- variance added per second, rate^2 step / 3, is then the same at any dt.
---@param step? number
---@return number angle, number x, number y
---@param a fbAgentView
---@param angle number
---@param u number
---@param rate number
---@param limit number
---@param dt number
function steering.wander(a, angle, u, rate, limit, dt, step) end
