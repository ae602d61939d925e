-- behaviours/scatter.lua — Parker's cohesion that turns negative for a while when the flock is startled, then re-forms (Parker, "Boids pseudocode", scattering the flock).
-- Parker scatters a flock by making the multiplier m1 of rule 1 (toward the perceived centre)
-- negative, and lets it re-form by making m1 positive again. Use this rule in place of cohesion:
--   a = m (c - p) / (divisor T^2) at Parker's step T  (steering.tend, times m),
--   m = 1 normally, m = multiplier (< 0) while scattering.
-- Each agent scatters for `duration` seconds after it was startled: when an agent of species
-- `from` comes within `alarm` (any direction), or when the scenario calls
-- fb.set_param(species, "scatter", "startle", 1) (Parker's loud noise; set it back to 0 after).
-- The seconds left are kept in the per-agent field `scatter`.
local max = math.max
local tend = steering.tend
local world = fb.world

return {
  params = {
    divisor = { 100, min = 1e-6, help = "the step closes 1/divisor of the way to the centre (Parker: 100)" },
    step = { 0.05, min = 1e-6, help = "Parker's time step, seconds: his constants hold at it, at any dt" },
    multiplier = { -1, help = "Parker's m1 while scattering (< 0: away from the centre)" },
    duration = { 3, min = 0, help = "how long an agent scatters once startled, seconds" },
    from = { "", help = "a species that startles (a predator) when it comes near (\"\" = none)" },
    alarm = { 20, min = 0, circle = true, help = "how near it must come to startle, world units" },
    startle = { 0, help = "non-zero: everyone is startled now (set by the scenario, Parker's loud noise)" },
  },

  fields = { scatter = 0 }, -- seconds of scattering left

  steer = function(a, p)
    local dt = world.dt
    local left
    if p.startle ~= 0 or (p.from ~= "" and a:nearest_agent(p.from, p.alarm) ~= nil) then
      left = p.duration
    else
      left = max(0, a.scatter - dt)
    end
    a:set("scatter", left)
    if a.n == 0 then
      return 0, 0
    end
    local ax, ay = tend(a.cx - a.x, a.cy - a.y, p.divisor, p.step)
    if left > 0 then
      local m = p.multiplier
      return m * ax, m * ay
    end
    return ax, ay
  end,
}
