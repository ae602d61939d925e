-- scripts/moths_lamp.lua — moths swarming round a lamp (Gamlen, Investigating Flocking Using
-- Behavioural Modelling, section 3.8).
-- Each moth takes the lamp for the centre of its swarm (swarm_point: Parker's cohesion toward the
-- lamp), a force field close to the lamp repels it, and the turn-rate limit (max_turn, Gamlen 3.7)
-- stops it from diving straight back: the moths orbit. Swarm-like motion as Gamlen got it: 360
-- degree vision, velocity matching almost off. A low min_speed lets a moth that flies straight at
-- the lamp be slowed by the field and turn back. The lamp is the goal drawn in the middle; move it
-- with on_step (fb.goal("lamp", x, y)) and the swarm follows.
-- Try: flockbox --headless --steps 3000 --csv moths.csv scripts/moths_lamp.lua

local CX, CY = 60, 60

-- The moths start on a ring round the lamp, heading every which way.
local moths = {}
for k = 1, 40 do
  local angle, r = 2 * math.pi * math.random(), 18 + 14 * math.random()
  local heading, speed = 2 * math.pi * math.random(), 6 + 3 * math.random()
  moths[k] = { CX + r * math.cos(angle), CY + r * math.sin(angle), speed * math.cos(heading), speed * math.sin(heading) }
end

-- The nearest and farthest moth from the lamp, where it is now (a hook or a drag in the window
-- may have moved it).
local function radius(pick)
  local best = pick == "min" and math.huge or 0
  local lx, ly = fb.goal("lamp")
  for a in fb.each() do
    local r = math.sqrt((a.x - lx) ^ 2 + (a.y - ly) ^ 2)
    best = pick == "min" and math.min(best, r) or math.max(best, r)
  end
  return best
end

return {
  name = "Moths round a lamp",
  world = { width = 120, height = 120, dt = 0.05, bounds = "clamp",
    update = "euler" }, -- the seed gives no update; the engine's default
  goals = { lamp = { CX, CY } },
  species = {
    {
      name = "moth", count = 0, agents = moths,
      body_length = 1.5, max_speed = 10, min_speed = 2, max_accel = 40,
      max_turn = 90,                     -- degrees per second
      vision = { radius = 10, fov = 360, separation = 2.5 },
      colour = { 235, 225, 190 },
      rules = {
        { "swarm_point", params = { goal = "lamp", divisor = 2000, repel = 15 } },
        { "separation" },
        { "alignment", weight = 0.1 },
      },
    },
  },
  metrics = {
    { "nearest_to_lamp", function() return radius("min") end },
    { "farthest_from_lamp", function() return radius("max") end },
  },
}
