-- scripts/rimea/pedestrian.lua — the pedestrian preset the RiMEA scenarios and the evacuation demo require: 1 unit = 1 m, bodies of 0.22 m radius, a free speed of 1.34 m/s (Weidmann 1993), ORCA on.
-- A scenario beside it (or under scripts/, as require("rimea.pedestrian")) writes
--   local ped = require("pedestrian")
--   world = ped.world(40, 4),  species = { ped.species({ name = "walker", count = 20, field = "exit" }) }
-- and gets walkers that follow the route field `field` at the free speed and avoid each other and
-- the walls with ORCA. The numbers, and why:
-- - radius 0.22 m: the shoulder half-width of an adult, within RiMEA's 0.2-0.25 m (a body's
--   clearance from walls in the route is this radius too: the route field's default).
-- - free speed 1.34 m/s: Weidmann's mean free walking speed, the v0 of his fundamental diagram.
-- - dt 0.1 s, semi-implicit update, max_accel 30 >= 2 v_max / dt, min_speed 0: what ORCA needs to
--   move an agent by the velocity it chose (docs/steering-orca.md, "In the step").
-- - follow_flow with gain 1/dt and no look-ahead: ORCA's preferred velocity is the field's velocity
--   itself (RVO2's convention), no relaxation in between.
-- - no body pass (collide = false): ORCA alone keeps bodies apart. With the pass (the engine's
--   position correction after the step) a crowd at a bottleneck jams: on RiMEA test 12, seeds 1-5,
--   seed 2 stopped with 53 still in the room and the others flowed at 0.40-1.47 /m/s, where
--   without it all 60 passed at 1.65-2.04 /m/s. The price: in the crush ORCA's least-violation fallback lets bodies overlap by
--   up to 0.15 m (0.03 m with the pass). `--set NAME.collide=true` puts it back.
-- - time gap 0.85 s for follow_flow_headway: the value that puts test 4's speeds nearest
--   Weidmann's at 2-3 /m² (0.7 s: 0.80 and 0.32 m/s; 1 s: 0.56 and 0.23; Weidmann 0.61 and 0.33).
-- - orca horizons of 2 s (agents) and 1 s (walls), 10 neighbours within 3 m: a pedestrian plans a
--   couple of steps ahead, not RVO2's 10 s, which in a dense crowd makes everyone stop early.
local P = { radius = 0.22, free_speed = 1.34, dt = 0.1, time_gap = 0.85 }

-- Weidmann's fundamental diagram (1993): the walking speed at density rho (persons/m²),
-- v = v0 (1 - exp(-gamma (1/rho - 1/rho_max))), v0 = 1.34 m/s, gamma = 1.913 /m², rho_max = 5.4 /m².
function P.weidmann(rho)
  return math.max(0, P.free_speed * (1 - math.exp(-1.913 * (1 / rho - 1 / 5.4))))
end

-- A world of w × h metres in the preset's step, ORCA's update and a body pass for what ORCA's
-- least-violation fallback leaves overlapping in a dense crowd. `bounds` defaults to clamp.
function P.world(w, h, bounds)
  return { width = w, height = h, dt = P.dt, bounds = bounds or "clamp", update = "semi_implicit",
    collision_iterations = 4 }
end

-- A pedestrian species following the flow field o.field at o.speed (the field's own speed if it is
-- a route; the cap is max_speed). o: name, count, field, spawn or agents, colour, speed, headway.
-- headway = true follows the field with follow_flow_headway (time gap P.time_gap): a crowd going
-- one way then slows with its density as Weidmann's does (RiMEA test 4), where ORCA alone lets it
-- walk at the free speed; but at a bottleneck it jams (test 12: 2-21 of 60 passed, seeds 1-8),
-- so it is off by default.
function P.species(o)
  local speed = o.speed or P.free_speed
  return {
    name = o.name or "pedestrian", count = o.count or 0, spawn = o.spawn, agents = o.agents,
    body_length = 2 * P.radius, max_speed = speed, max_accel = 30, min_speed = 0, collide = false,
    orca = { time_horizon = 2, obstacle_horizon = 1, neighbours = 10, distance = 3 },
    vision = { radius = 3, fov = 360 },
    colour = o.colour or { 230, 200, 120 },
    rules = { not o.headway
      and { "follow_flow", params = { field = o.field or "exit", predict = 0, gain = 1 / P.dt } }
      or { "follow_flow_headway", params = { field = o.field or "exit", time_gap = P.time_gap, gain = 1 / P.dt } } },
  }
end

-- A route to a goal region at the preset's speed on a grid of `cell` metres (default 0.1 m).
function P.route(to, o)
  o = o or {}
  return { route = { to = to, cell = o.cell or 0.1, speed = o.speed or P.free_speed, walls = o.walls,
    inside = o.inside } }
end

-- The deepest overlap of two bodies of species `name` now, in metres (0: none touch); every pair.
function P.deepest_overlap(name)
  local xs, ys, n, deepest = {}, {}, 0, 0
  for a in fb.each(name) do
    n = n + 1
    xs[n], ys[n] = a.x, a.y
  end
  for i = 1, n do
    for j = i + 1, n do
      local d = math.sqrt((xs[j] - xs[i]) ^ 2 + (ys[j] - ys[i]) ^ 2)
      deepest = math.max(deepest, 2 * P.radius - d)
    end
  end
  return deepest
end

return P
