seen = {}
local kept_walk

return {
  world = { width = 120, height = 80, dt = 0.05, bounds = "wrap" },
  species = {
    { name = "herd", count = 12, rules = { { "separation" }, { "cohesion" } } },
    { name = "wolf", count = 3, rules = { { "wander" } } },
  },
  on_step = function(step)
    if step == 2 then
      local ids_ascending, last, herd, sum_x = true, 0, 0, 0
      for a in fb.agents("herd") do
        ids_ascending = ids_ascending and a.id > last and a.species == "herd"
        last, herd, sum_x = a.id, herd + 1, sum_x + a.x
      end
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
