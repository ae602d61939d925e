-- scripts/vicsek.lua — Vicsek et al. 1995: self-propelled particles that take their neighbours' mean heading, with noise; order gives way to disorder as the noise grows.
-- N particles at density rho = N / L^2 = 4 in a periodic box of side L, constant speed v = 0.03,
-- interaction radius r = 1, time step 1: each step every particle takes the mean heading of those
-- within r (itself included) plus a uniform angle in [-eta/2, eta/2] (behaviours/vicsek.lua). The
-- order parameter v_a = |sum v_i| / (N v) is the telemetry's polarisation; `order` is its mean over
-- the second half of the run so far (the first half is the transient).
-- Here N = 400 (L = 10). Other sizes at the same density: --set particle.count=40 --set
-- world.width=3.1623 --set world.height=3.1623 (N = 100: L = 5; N = 4 000: L = 31.623).
-- Try: flockbox --headless --steps 4000 --csv v.csv --set particle.vicsek.eta=2 scripts/vicsek.lua
-- Sweep: flockbox sweep experiments/vicsek.lua (v_a against eta; docs/experiments.md)
local sum, samples = 0, 0 -- polarisation summed over the second half of the steps so far
local history = {}

local function polarisation()
  local vx, vy = fb.mean("vx", "particle"), fb.mean("vy", "particle")
  local speed = fb.mean("speed", "particle")
  if speed == nil or speed == 0 then
    return 0
  end
  return math.sqrt(vx * vx + vy * vy) / speed
end

return {
  name = "Vicsek et al. 1995: self-propelled particles",
  world = { width = 10, height = 10, dt = 1, bounds = "wrap",
    update = "semi_implicit" }, -- each particle moves by its new velocity
  species = {
    {
      name = "particle", count = 400,
      spawn = { speed = { 0.03, 0.03 } }, -- anywhere in the box, headings uniform
      body_length = 0.01, collide = false, -- points
      max_speed = 0.03, min_speed = 0.03, cruise_speed = 0.03, max_accel = 1,
      vision = { radius = 1, fov = 360, separation = 0 },
      draw_size = 5,
      colour = { 120, 200, 255 },
      rules = { { "vicsek", params = { eta = 2, speed = 0.03 } } },
    },
  },
  on_step = function(step)
    history[step] = polarisation()
    -- the mean over steps (step/2, step]: add the new one, drop the one that left the window
    sum, samples = sum + history[step], samples + 1
    if step % 2 == 0 then
      local gone = step // 2
      if history[gone] then
        sum, samples = sum - history[gone], samples - 1
        history[gone] = nil
      end
    end
  end,
  metrics = {
    { "order", function() return samples > 0 and sum / samples or polarisation() end },
  },
}
