-- behaviours/hunt.lua — pursue the nearest prey where it will be, catch it, rest (Reynolds' pursuit; Bourg's closing time).
-- The manual's example rule, word for word (docs/writing-rules.md; tests/cli_rules.sh checks they agree; test_rule_api runs it).
local pursue, match_velocity = steering.pursue, steering.match_velocity
local world = fb.world -- width, height, wraps, dt: fixed for the life of the module

return {
  params = {
    prey = { "herd", help = "the species hunted (the nearest of its agents)" },
    sight = { 40, min = 0, help = "how far prey is seen, world units" },
    reach = { 1.5, min = 0, help = "a prey this near is caught, world units" },
    horizon = { 2, min = 0, help = "the longest look-ahead, seconds" },
    rest = { 3, min = 0, help = "seconds of rest after a catch" },
  },

  fields = { resting = 0 }, -- seconds of rest left, per agent: read a.resting, write a:set("resting", v)

  steer = function(a, p, s)
    if a.resting > 0 then
      a:set("resting", math.max(0, a.resting - world.dt)) -- seen from the next step on
      return match_velocity(a, s, 0, 0, 1)                -- brake to a halt
    end
    local dx, dy, dist, vx, vy, id = a:nearest_agent(p.prey, p.sight)
    if dx == nil then
      return 0, 0 -- nothing in sight: the other rules steer
    end
    if dist < p.reach then
      a:remove(id) -- applied after the step; two hunters on one prey count one catch
      a:set("resting", p.rest)
      return 0, 0
    end
    return pursue(a, s, dx, dy, dist, vx, vy, p.horizon)
  end,
}
