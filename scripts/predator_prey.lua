-- scripts/predator_prey.lua — a few predators hunting a herd over hills.
-- The herd (Gompert's prioritised rules, terrain drag) grazes with a wander; as a predator nears,
-- each animal's comfort radius shrinks and the herd bunches up (Gamlen 3.8); when it comes close
-- they run from where it is heading (evade) and scatter, their cohesion negated for a while, then
-- re-form (Parker). Predators seek the nearest prey in view, catch it within 3.5 units (centre to
-- centre: their bodies, 4 and 2 long, touch at 3), and rest after each catch. Each catch is counted once (the catches column of the CSV); the scenario
-- replaces each caught animal with a newborn beside a member of the herd.
-- Try: flockbox --headless --steps 4000 --csv hunt.csv scripts/predator_prey.lua

local W, H = 300, 300
local respawn = true
local seen, born = 0, 0

return {
  name = "Predators and a herd",
  world = { width = W, height = H, dt = 0.05, bounds = "clamp",
    update = "euler" }, -- Gompert eq. 1: moved by the velocity it had
  terrain = { png = "terrains/hills.png", height = 40 },
  species = {
    {
      name = "herd", count = 80,
      spawn = { around = { 150, 150, 35 }, speed = { 0, 2 } },
      body_length = 2, max_speed = 8, cruise_speed = 3, max_accel = 16,
      vision = { radius = 20, fov = 300, separation = 8 },
      accumulator = "prioritised",
      colour = { 200, 140, 90 },
      rules = {
        { "evade", params = { from = "predator", radius = 22, calm = 40, horizon = 2 } },
        { "bunch_up", params = { from = "predator", comfort = 8, tight = 3.5, far = 70, near = 25 } },
        { "alignment_gompert", params = { gain = 0.5 } },
        { "scatter", params = { from = "predator", alarm = 18, duration = 3, divisor = 1000 } },
        { "wander", params = { strength = 0.2 } },
        { "soft_bounds", params = { margin = 12, push = 0.015 } },
        { "terrain_drag", drag = true, params = { uphill = 30, downhill = 6 } },
      },
    },
    {
      name = "predator", count = 3,
      spawn = { area = { 10, 10, 290, 40 }, speed = 3, heading = 90 },
      body_length = 4, max_speed = 11, cruise_speed = 4, max_accel = 30,
      vision = { radius = 10, fov = 240 },
      colour = { 235, 45, 60 }, draw_size = 16, -- red against the tan herd, and drawn large enough to find
      rules = {
        { "predator", params = { prey = "herd", radius = 90, catch = 3.5, rest = 8 } },
        { "wander", params = { strength = 0.3 } },
        { "soft_bounds", params = { margin = 15, push = 0.025 } },
      },
    },
  },
  -- A newborn for each catch, beside a member of the herd picked at random.
  on_step = function(step)
    local catches = fb.catches()
    while respawn and seen < catches do
      seen = seen + 1
      local count = fb.count("herd")
      if count > 0 then
        local k, x, y = math.random(count), nil, nil
        for a in fb.each("herd") do -- the k-th in id order
          k = k - 1
          if k == 0 then
            x, y = a.x, a.y
          end
        end
        fb.spawn("herd", x + 2 * math.random() - 1, y + 2 * math.random() - 1)
        born = born + 1
      end
    end
  end,
  metrics = {
    { "catches", function() return fb.catches() end },
    { "herd", function() return fb.count("herd") end },
    { "born", function() return born end },
  },
}
