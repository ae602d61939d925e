-- scripts/herd_valley.lua — two of Gompert's herds bound for a goal beyond a ridge with a pass: one routed by least energy, one by seek alone (issue 34; Gompert, Flocking Over 3D Terrain, 5.2.2).
-- The ridge (terrains/ridge_gap.png, 30 high) runs east-west across the middle, y = 100, with one
-- pass at x = 140 down to a fifth of its height. Both herds start round (60, 30); the goal is
-- (60, 175), straight across the ridge's high part. Both walk with Gompert's rules and his terrain
-- drag; `routed` follows the route field `valley` (cost = "energy": the engine's energy per unit
-- length over the terrain), `direct` seeks the goal. They do not see each other. An animal within
-- 8 units of the goal is counted and leaves; where each crossed y = 100 is recorded.
-- Metrics per herd: arrived, energy (mean per animal at arrival), trip (mean arrival time, s),
-- cross_x (mean x where it crossed the ridge line), at_pass (how many crossed within 15 of x = 140).
-- Try: flockbox --headless --steps 2400 --csv valley.csv scripts/herd_valley.lua
local GOAL, ARRIVE, RIDGE_Y, PASS_X, PASS_HALF = { 60, 175 }, 8, 100, 140, 15
local herds = { routed = {}, direct = {} }
for _, h in pairs(herds) do h.arrived, h.energy, h.time, h.crossed, h.cross_x, h.at_pass, h.y = 0, 0, 0, 0, 0, 0, {} end

local function herd(name, colour, route)
  return {
    name = name, count = 30,
    spawn = { around = { 60, 30, 10 }, speed = { 0, 1 }, heading = 90 },
    body_length = 2, max_speed = 8, cruise_speed = 5.6, max_accel = 16,
    vision = { radius = 20, fov = 270, separation = 6, sees = { name } },
    accumulator = "prioritised", colour = colour,
    rules = {
      { "separation_gompert", params = { comfort = 6, danger = 3 } },
      { "alignment_gompert" },
      { "cohesion_gompert" },
      route and { "follow_flow", params = { field = "valley", predict = 0.5, gain = 2 } } or { "seek_goal" },
      { "terrain_drag", drag = true, params = { uphill = 30, downhill = 6 } },
    },
  }
end

local function watch(name)
  local h = herds[name]
  for a in fb.each(name) do
    local before = h.y[a.id]
    if before and before < RIDGE_Y and a.y >= RIDGE_Y then -- crossing the ridge line southward
      h.crossed, h.cross_x = h.crossed + 1, h.cross_x + a.x
      h.at_pass = h.at_pass + (math.abs(a.x - PASS_X) < PASS_HALF and 1 or 0)
    end
    h.y[a.id] = a.y
    if (a.x - GOAL[1]) ^ 2 + (a.y - GOAL[2]) ^ 2 < ARRIVE ^ 2 then
      h.arrived, h.energy, h.time = h.arrived + 1, h.energy + a.energy, h.time + fb.time() * fb.world.dt
      fb.remove(a.id)
    end
  end
end

local function mean(name, sum)
  local h = herds[name]
  local n = sum == "cross_x" and h.crossed or h.arrived
  return n > 0 and h[sum] / n or 0
end

local metrics = {}
for _, name in ipairs({ "routed", "direct" }) do
  table.insert(metrics, { name .. "_arrived", function() return herds[name].arrived end })
  table.insert(metrics, { name .. "_energy", function() return mean(name, "energy") end })
  table.insert(metrics, { name .. "_trip", function() return mean(name, "time") end })
  table.insert(metrics, { name .. "_cross_x", function() return mean(name, "cross_x") end })
  table.insert(metrics, { name .. "_at_pass", function() return herds[name].at_pass end })
end

return {
  name = "Herds and a ridge: routed by energy or seeking",
  world = { width = 200, height = 200, dt = 0.05, bounds = "clamp", update = "euler" },
  terrain = { png = "terrains/ridge_gap.png", height = 30 },
  goals = { goal = GOAL },
  flow_fields = { valley = { route = { to = GOAL, cost = "energy", cell = 2 } } },
  species = { herd("routed", { 120, 220, 140 }, true), herd("direct", { 230, 150, 90 }, false) },
  on_step = function()
    watch("routed")
    watch("direct")
    if fb.count() == 0 then fb.stop("arrived") end
  end,
  metrics = metrics,
}
