-- tests/data/hooks_api.lua — a scenario whose on_step uses the scenario API (fb.agents, fb.find,
-- fb.set_goal, fb.world, fb.time) and writes what it saw into `seen`, which test_rule_api reads.
-- luacheck: globals seen stale_walk_test (globals of the scenario's environment, which the C test reads and sets)
seen = {}
local kept_walk

return {
  world = { width = 120, height = 80, dt = 0.05, bounds = "wrap" },
  species = {
    { name = "herd", count = 12, rules = { { "separation" }, { "cohesion" } } },
    { name = "wolf", count = 3, rules = { { "wander" } } },
    { name = "nobody_yet", count = 0, rules = { { "wander" } } },
  },
  on_step = function(step)
    if step == 2 then
      local ids_ascending, last, herd, sum_x, sum_y, sum_e = true, 0, 0, 0, 0, 0
      for a in fb.agents("herd") do
        ids_ascending = ids_ascending and a.id > last and a.species == "herd"
        last, herd, sum_x, sum_y, sum_e = a.id, herd + 1, sum_x + a.x, sum_y + a.y, sum_e + a.energy
      end
      -- fb.centre and fb.mean add up in C what this walk adds up in Lua: the same bits
      local cx, cy, n = fb.centre("herd")
      local me, m = fb.mean("energy", "herd")
      seen.centre_same = cx == sum_x / herd and cy == sum_y / herd and n == herd
      seen.mean_same = me == sum_e / herd and m == herd
      seen.mean_none = select(2, fb.mean("x", "nobody_yet")) == 0
      local all = 0
      for _ in fb.agents() do all = all + 1 end
      seen.herd, seen.all, seen.ids_ascending, seen.mean_x = herd, all, ids_ascending, sum_x / herd
      local first = fb.find(1)
      seen.find_x, seen.find_speed = first.x, first.speed
      seen.missing = fb.find(100000) == nil
      fb.set_goal("lamp", 30, 40)
      seen.world = string.format("%g %g %s %g", fb.world.width, fb.world.height, tostring(fb.world.wraps), fb.world.dt)
      seen.step, seen.time = fb.time()
      kept_walk = fb.agents("wolf")
    elseif step == 3 and stale_walk_test then
      kept_walk()  -- a walk is for the step it was made in: this must fail with a clear message
    end
  end,
}
