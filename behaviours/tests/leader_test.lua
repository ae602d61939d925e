-- behaviours/tests/leader_test.lua — what behaviours/leader.lua promises, in real worlds (flockbox test behaviours/).
-- Bourg's narrow view: heading +x, a unit counts as in front when it is ahead and |side| < front * ahead,
-- within range body lengths (0: the vision radius, 10). The rule only sets the field `leader`.
local t = require("flockbox.test")

-- The agent moves +x at 5 among `mates`; returns its leader field after one step, and the steering.
local function leads(mates, params, others)
  local ax, ay, w = t.steer("leader", { agent = { 100, 100, 5, 0 }, mates = mates, others = others,
    species = { collide = false } }, params)
  return w:field("leader"), ax, ay
end

t.test("a unit in front: not a leader, and no steering", function()
  local leader, ax, ay = leads({ { 5, 1 } })
  t.equal(leader, 0)
  t.zero(ax, ay)
end)

t.test("nobody in the narrow view: a leader", function()
  t.equal(leads({ { 5, 6 }, { -5, 0 } }), 1, "(5, 6) is outside the wedge, (-5, 0) behind")
end)

t.test("front widens the view", function()
  t.equal(leads({ { 5, 6 } }, { front = 2 }), 0)
end)

t.test("range limits the narrow view (body lengths)", function()
  t.equal(leads({ { 5, 1 } }, { range = 3 }), 1, "5.1 away, beyond 3")
end)

t.test("a unit of another type in front counts (Bourg); own_type counts only flock-mates", function()
  local mates = { { -5, 0 }, { 5, 1, species = "interceptor" } }
  t.equal(leads(mates), 0)
  t.equal(leads(mates, { own_type = true }), 1)
end)

t.test("the player ahead does not count (Bourg's loop skips it); count_player counts it", function()
  local mates, others = { { 5, 1, species = "hero" } }, { hero = { player = true } }
  t.equal(leads(mates, nil, others), 1)
  t.equal(leads(mates, { count_player = true }, others), 0)
end)

t.test("front 0 is refused", function()
  t.fails(function()
    t.world({ rule = "leader", params = { front = 0 } })
  end, "front")
end)
