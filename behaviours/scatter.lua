-- behaviours/scatter.lua — Parker's cohesion that turns negative for a while when the flock is startled, then re-forms (Parker, "Boids pseudocode", scattering the flock).
-- Parker scatters a flock by making the multiplier m1 of rule 1 (toward the perceived centre)
-- negative, and lets it re-form by making m1 positive again. Use this rule in place of cohesion:
--   a = m * (c - p) / divisor / dt,   m = 1 normally, m = multiplier (< 0) while scattering.
-- Each agent scatters for `duration` seconds after it was startled: when an agent of species
-- `from` comes within `alarm` (any direction), or when the scenario calls
-- fb.set_param(species, "scatter", "startle", 1) (Parker's loud noise; set it back to 0 after).
-- The seconds left are kept in the per-agent field `scatter`.
local max = math.max

return {
  params = {
    divisor = 100,     -- Parker's 100
    multiplier = -1,   -- m1 while scattering
    duration = 3,      -- seconds
    from = "",         -- a species that startles (a predator); "" = none
    alarm = 20,        -- how near it must come, world units
    startle = 0,       -- non-zero: everyone is startled now (set by the scenario)
  },

  fields = { scatter = 0 },

  validate = function(p)
    if not (p.divisor > 0) then
      return "divisor", "must be positive (Parker uses 100)"
    end
    if not (p.duration >= 0) then
      return "duration", "must be >= 0 seconds"
    end
    if not (p.alarm >= 0) then
      return "alarm", "must be >= 0"
    end
  end,

  steer = function(a, p, s)
    local left = a:get("scatter")
    if p.startle ~= 0 or (p.from ~= "" and a:nearest(p.from, p.alarm) ~= nil) then
      left = p.duration
    else
      left = max(0, left - s.dt)
    end
    a:set("scatter", left)
    if a.n == 0 then
      return 0, 0
    end
    local k = (left > 0 and p.multiplier or 1) / (p.divisor * s.dt)
    return (a.cx - a.x) * k, (a.cy - a.y) * k
  end,
}
