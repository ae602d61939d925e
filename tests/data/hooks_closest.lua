-- tests/data/hooks_closest.lua — fb.closest within walls (its sweep, not the torus's every pair)
-- against a brute force over every pair, for one species and two, at every step; and its ties on
-- a lattice of posts spawned at rest at step 1 with a rule that steers nowhere, whose neighbours
-- stay exactly 5 apart.
-- luacheck: globals seen (read by test_rule_api)
seen = { checks = 0, mismatches = 0 }

local function closest_brute(sa, sb)
  local best, ia, ib = math.huge, nil, nil
  for a in fb.agents(sa) do
    for b in fb.agents(sb or sa) do
      if a.id ~= b.id then
        local d2 = (b.x - a.x) ^ 2 + (b.y - a.y) ^ 2
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

local function check(sa, sb)
  local d, i, j = fb.closest(sa, sb)
  local bd, bi, bj = closest_brute(sa, sb)
  seen.checks = seen.checks + 1
  if d ~= bd or i ~= bi or j ~= bj then
    seen.mismatches = seen.mismatches + 1
    seen.last = string.format("%s/%s: %s %s %s against %s %s %s", sa, tostring(sb), d, i, j, bd, bi, bj)
  end
end

return {
  behaviours = { "../behaviours" },
  world = { width = 200, height = 150, dt = 0.05, bounds = "clamp" },
  species = {
    { name = "herd", count = 150, spawn = { area = { 0, 0, 120, 150 } }, rules = { { "separation" }, { "wander" } } },
    { name = "wolf", count = 40, spawn = { area = { 0, 0, 120, 150 } }, rules = { { "wander" } } },
    { name = "post", count = 0, min_speed = 0, rules = { { "inert" } } },
  },
  on_step = function(step)
    if step == 1 then
      for k = 0, 8 do
        fb.spawn("post", 170 + 5 * (k % 3), 60 + 5 * (k // 3), 0, 0) -- far from the others, who would shove them
      end
      return
    end
    check("herd", "wolf")
    check("wolf", "herd")
    check("herd")
    check("wolf")
    check("post")
    seen.post_distance, seen.post_a, seen.post_b = fb.closest("post")
    seen.first_post = nil
    for a in fb.agents("post") do
      seen.first_post = seen.first_post or a.id
    end
  end,
}
