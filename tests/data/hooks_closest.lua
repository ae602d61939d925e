-- tests/data/hooks_closest.lua — fb.closest within walls (its sweep, not the torus's every pair)
-- against a brute force over every pair, for one species and two, at every step; and its ties on
-- a lattice of posts spawned at rest at step 1 with a rule that steers nowhere, whose neighbours
-- stay exactly 5 apart.
-- luacheck: globals seen (read by test_rule_api)
seen = { checks = 0, pair_checks = 0, pairs_found = 0, mismatches = 0 }

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

-- Pairs closer than d by brute force: one of each species, or each unordered pair of one once.
local function pairs_brute(d, sa, sb)
  local count = 0
  for a in fb.agents(sa) do
    for b in fb.agents(sb or sa) do
      if (sb ~= nil and sb ~= sa) or a.id < b.id then
        count = count + (((b.x - a.x) ^ 2 + (b.y - a.y) ^ 2 < d * d) and 1 or 0)
      end
    end
  end
  return count
end

local function check_pairs(d, sa, sb)
  local got, want = fb.close_pairs(d, sa, sb), pairs_brute(d, sa, sb)
  seen.pair_checks = seen.pair_checks + 1
  seen.pairs_found = seen.pairs_found + want
  if got ~= want then
    seen.mismatches = seen.mismatches + 1
    seen.last = string.format("close_pairs(%g, %s, %s): %d against %d", d, tostring(sa), tostring(sb), got, want)
  end
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
    for _, d in ipairs({ 0, 1.5, 4, 12 }) do
      check_pairs(d, "herd")
      check_pairs(d, "herd", "wolf")
      check_pairs(d, "wolf", "herd")
    end
    check_pairs(5, "post") -- exactly 5 apart: none closer than 5
    check_pairs(5.000001, "post") -- 12 pairs of lattice neighbours
    seen.posts_apart, seen.posts_touching = fb.close_pairs(5, "post"), fb.close_pairs(5.000001, "post")
    seen.all_pairs = fb.close_pairs(math.huge) -- every pair of every agent, each once
    seen.post_distance, seen.post_a, seen.post_b = fb.closest("post")
    seen.first_post = nil
    for a in fb.agents("post") do
      seen.first_post = seen.first_post or a.id
    end
  end,
}
