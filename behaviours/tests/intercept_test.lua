-- behaviours/tests/intercept_test.lua — what behaviours/intercept.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("steers for where the target will be", function()
  local _, ay = t.steer("intercept", { agent = { 100, 100, 1, 0 }, mates = { { 10, 0, 0, 3, species = "player" } } })
  t.greater(ay, 0, "leads the target, which moves to +y")
end)

-- ---- worked by hand (moved from tests/rules_test.lua's mock to real worlds) ----------------------
-- The worked cases' species and description (t.WORKED_SPECIES, t.worked) and check (t.expect): the harness's.
local case, expect = t.worked, t.expect

-- Own velocity (10, 0); the target (species player) at (30, -40), 50 away, moving (0, 10).
-- v_rel = (-10, 10), |v_rel| = 10 sqrt 2; t = 50 / (10 sqrt 2) = 3.5355 s. Aim (30, -40 + 10 t) =
-- (30, -4.645): to the left, atan(4.645 / 30) = 8.80 degrees < settle 15: a = -20 * 8.80 / 15 (0, 1).
t.test("worked: aims where the target will be", function()
  local aim_y = -40 + 10 * 50 / (10 * math.sqrt(2))
  expect(0, -20 * math.deg(math.atan(-aim_y / 30)) / 15, 1e-9, "intercept",
    case(10, 0, { { 30, -40, 0, 10, species = "player" } }))
end)
-- The target moves exactly like the unit: |v_rel| = 0, t = horizon 2: aim (10, 0) + (5, 0) * 2 =
-- (20, 0), dead ahead. The same, 10 to the right: aim (10, 10), 45 degrees off: the full push.
t.test("worked: the closing time capped at the horizon", function()
  expect(0, 0, 1e-9, "intercept", case(5, 0, { { 10, 0, 5, 0, species = "player" } }), { horizon = 2 })
  expect(0, 20, 1e-9, "intercept", case(5, 0, { { 0, 10, 5, 0, species = "player" } }), { horizon = 2 })
end)
