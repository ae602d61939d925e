-- tests/data/hooks_api.lua — a scenario whose on_step uses the scenario API (fb.agents, fb.each,
-- fb.closest, fb.close_pairs, fb.find, fb.set_goal, fb.world, fb.time) and writes what it saw into `seen`, which
-- test_rule_api reads. Its world wraps; tests/data/hooks_closest.lua checks fb.closest within walls.
-- luacheck: globals seen stale_walk_test (globals of the scenario's environment, which the C test reads and sets)
seen = {}
local kept_walk

-- The closest pair by brute force, through the nearest image when the world wraps: what fb.closest
-- must equal, ties to the lowest ids as it has them.
local function closest_brute(sa, sb)
  local w, h, wraps = fb.world.width, fb.world.height, fb.world.wraps
  local best, ia, ib = math.huge, nil, nil
  for a in fb.agents(sa) do
    for b in fb.agents(sb or sa) do
      if a.id ~= b.id then
        local dx, dy = b.x - a.x, b.y - a.y
        if wraps then
          dx = dx - w * math.floor(dx / w + 0.5)
          dy = dy - h * math.floor(dy / h + 0.5)
        end
        local d2 = dx * dx + dy * dy
        if d2 < best or (d2 == best and (a.id < ia or (a.id == ia and b.id < ib))) then
          best, ia, ib = d2, a.id, b.id
        end
      end
    end
  end
  if ia == nil then
    return nil
  end
  return math.sqrt(best), ia, ib
end

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
      -- fb.each walks what fb.agents walks, with one record; nested walks keep their own
      local same, pairs_seen, outer_record, reused = true, 0, nil, true
      local walk = fb.agents()
      for a in fb.each() do
        local b = walk()
        same = same and b ~= nil and a.id == b.id and a.x == b.x and a.vy == b.vy and a.species == b.species
        outer_record = outer_record or a
        reused = reused and rawequal(outer_record, a)
        local id = a.id
        for c in fb.each("wolf") do
          pairs_seen = pairs_seen + 1
          same = same and c.species == "wolf" and a.id == id -- the inner walk left the outer record alone
        end
      end
      seen.each_same = same and walk() == nil
      seen.each_reused, seen.each_pairs = reused, pairs_seen
      -- fb.closest equals the brute force, for one species, two, and none
      local d, i, j = fb.closest("herd", "wolf")
      local bd, bi, bj = closest_brute("herd", "wolf")
      seen.closest_two = d == bd and i == bi and j == bj
      d, i, j = fb.closest("herd")
      bd, bi, bj = closest_brute("herd")
      seen.closest_one = d == bd and i == bi and j == bj
      seen.closest_none = fb.closest("herd", "nobody_yet") == nil
      -- fb.close_pairs on the torus: through the nearest image, as the brute force
      local near, within = 0, 9
      for a in fb.agents("herd") do
        for b in fb.agents("herd") do
          if a.id < b.id then
            local dx, dy = b.x - a.x, b.y - a.y
            dx = dx - fb.world.width * math.floor(dx / fb.world.width + 0.5)
            dy = dy - fb.world.height * math.floor(dy / fb.world.height + 0.5)
            near = near + ((dx * dx + dy * dy < within * within) and 1 or 0)
          end
        end
      end
      seen.close_pairs_wrap = fb.close_pairs(within, "herd") == near and near > 0
      seen.close_pairs_none = fb.close_pairs(within, "herd", "nobody_yet") == 0
      kept_walk = fb.agents("wolf")
    elseif step == 3 and stale_walk_test then
      kept_walk()  -- a walk is for the step it was made in: this must fail with a clear message
    end
  end,
}
