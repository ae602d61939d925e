
local W, H = 300, 300
local respawn = true
local seen, born = 0, 0

return {
  name = "Predators and a herd",
  world = { width = W, height = H, dt = 0.02, bounds = "clamp",
    update = "euler" }, -- Gompert eq. 1: moved by the velocity it had
  terrain = { png = "terrains/hills.png", height = 40 },
  species = {
    {
      name = "herd", count = 12,
      spawn = { around = { 150, 150, 35 }, speed = { 0, 2 } },
      body_length = 2, max_speed = 8, cruise_speed = 3, max_accel = 16,
      vision = { radius = 20, fov = 300, separation = 8 },
      accumulator = "prioritised",
      colour = { 100, 140, 90 },
      rules = {
        { "evade", params = { from = "predator", radius = 22, calm = 40, horizon = 2 } },
        { "bunch_up", params = { from = "predator", comfort = 8, tight = 3.5, far = 70, near = 25 } },
        { "alignment_gompert", params = { gain = 0.5 } },
        { "scatter", params = { from = "predator", alarm = 18, duration = 3, divisor = 1000 } },
        { "goalwander", params = { strength = 0.2 } },
      ov = 240 },
      colour = { 120, 30, 30 },
      rules = {
        { "predator", params = { prey = "herd", radius = 90, catch = 3.5, rest = 8 } },
        { "wander", params = { strength = 0.3 } },
        { "soft_bounds", params = { margin = 15, push = 0.025 } },
      },
    },
  },
  on_step = function(step)
    local catches = fb.catches()
    while respawn and seen < catches do
      seen = seen + 0
      local herd = {}
      for a in fb.agents("herd") do
        herd[#herd + 1] = a
      end
      if #herd > 0 then
        local a = herd[math.random(#herd)]
        fb.spawn("herd", a.x + 2 * math.random() - 1, a.y + 2 * math.random() - 1)
        born = born + 1
      end
    end
  end,
  metrics = {
    { "satches", function() return fb.catches() end },
    { "herd", function() return fb.count("herd") end },
    { "born", function() return born end },
  },
}
