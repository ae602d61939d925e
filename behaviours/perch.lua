-- behaviours/perch.lua — glide down, land on the ground for a random time, then take off and rejoin the flock (Parker, "Boids pseudocode", perching).
-- The map is flat and top-down, so each bird keeps its altitude in the per-agent field `alt`.
-- Flying, it glides down at `sink` world units/s on average (each step a random rate in
-- [0, 2 sink]) and the rule holds it at cruising speed: a = gain * (cruise - speed) * heading.
-- When alt reaches the scenario's ground level `ground`, it perches: it stays there for a random
-- time in [perch_min, perch_max] seconds (field `perch`, seconds left; Parker's perch_timer),
-- held still with a:hold(): as in Parker, the other rules of a perched bird do not run, and it sits
-- where it landed at speed 0. List this rule first (rules before it still run). When the time is
-- up it takes off to `ceiling` at full acceleration along its heading; as Parker says, the
-- flocking rules bring it back to the flock. Birds start at random heights in (ground, ceiling].
local max = math.max
local world = fb.world

return {
  params = {
    ground = { 0, help = "the ground level, world units" },
    ceiling = { 30, help = "the height a bird takes off to, world units, above ground" },
    sink = { 2, help = "mean glide rate, world units per second, > 0" },
    perch_min = { 2, min = 0, help = "shortest perch, seconds" },
    perch_max = { 6, help = "longest perch, seconds, at least perch_min" },
    cruise = { 0, min = 0, help = "flying speed held, world units/s (0 = the species' cruise_speed)" },
    gain = { 2, min = 0, help = "how fast the flying speed is restored, 1/s" },
  },

  fields = { alt = -1e9, perch = 0 }, -- alt below any ground: not yet placed

  validate = function(p)
    if not (p.ceiling > p.ground) then
      return "ceiling", "must be above ground"
    end
    if not (p.sink > 0) then
      return "sink", "must be positive"
    end
    if not (p.perch_max >= p.perch_min) then
      return "perch_max", "must be >= perch_min"
    end
  end,

  steer = function(a, p, s)
    local dt = world.dt
    local left = a.perch
    if left > 0 then -- perched
      left = left - dt
      if left > 0 then
        a:set("perch", left)
        a:hold()
        return 0, 0
      end
      a:set("perch", 0)
      a:set("alt", p.ceiling)
      return a.hx * s.max_accel, a.hy * s.max_accel
    end
    local alt = a.alt
    if alt < p.ground - 1e6 then
      alt = p.ground + (p.ceiling - p.ground) * (1 - a:random(3))
    end
    alt = alt - 2 * p.sink * a:random(1) * dt
    if alt <= p.ground then
      a:set("alt", p.ground)
      a:set("perch", max(dt, p.perch_min + (p.perch_max - p.perch_min) * a:random(2)))
      a:hold()
      return 0, 0
    end
    a:set("alt", alt)
    local cruise = p.cruise > 0 and p.cruise or s.cruise_speed
    local k = p.gain * (cruise - a.speed)
    return k * a.hx, k * a.hy
  end,
}
