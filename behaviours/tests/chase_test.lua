-- behaviours/tests/chase_test.lua — what behaviours/chase.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("steers along the line of sight to the target", function()
  local _, ay = t.steer("chase", { agent = { 100, 100, 1, 0 }, mates = { { 10, 10, species = "player" } } })
  t.greater(ay, 0, "turns towards the target at +y")
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- Heading +x, right side +y; max_accel 20, settle 15 degrees. The target is an agent of species
-- `player` placed at an offset. (0, 10): 90 degrees off, on the right: the full push (0, 20).
local function target(dx, dy, vx, vy, extra)
  return case(5, 0, { { dx, dy, vx or 0, vy or 0, species = "player" } }, extra)
end
t.test("worked: the full push toward a target on the right, or the left", function()
  expect(0, 20, 1e-9, "chase", target(0, 10))
  expect(0, -20, 1e-9, "chase", target(3, -10))
end)
-- 7.5 degrees off (half of settle): half the push; settle 0 is Bourg's bang-bang: the full push.
t.test("worked: within settle the push shrinks; settle 0, bang-bang", function()
  local off = 10 * math.tan(math.rad(7.5))
  expect(0, 10, 1e-9, "chase", target(10, off))
  expect(0, 20, 1e-9, "chase", target(10, off), { settle = 0 })
end)
t.test("worked: dead ahead, nothing; dead behind, turns right; no target, nothing", function()
  expect(0, 0, 1e-9, "chase", target(10, 0))
  expect(0, 20, 1e-9, "chase", target(-10, 0))
  expect(0, 0, 1e-9, "chase", case(5, 0, nil, { others = { player = {} } })) -- the species, no agent
end)
-- leaders_only: a unit whose leader field is 0 does not chase; one whose field is 1 does.
t.test("worked: leaders_only, by the leader field", function()
  expect(0, 0, 1e-9, "chase", target(0, 10, 0, 0, { fields = { leader = 0 } }), { leaders_only = true })
  expect(0, 20, 1e-9, "chase", target(0, 10, 0, 0, { fields = { leader = 1 } }), { leaders_only = true })
end)
-- The target of intercept_test's worked case, by line of sight: up and to the left, 53 degrees off.
t.test("worked: the target intercept leads, by line of sight", function()
  expect(0, -20, 1e-9, "chase", case(10, 0, { { 30, -40, 0, 10, species = "player" } }))
end)
