-- behaviours/tests/predator_test.lua — what behaviours/predator.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("seeks the nearest prey", function()
  local ax, ay = t.steer("predator", { agent = { 100, 100 }, mates = { { 6, -6, species = "prey" } } })
  t.towards(ax, ay, 6, -6, 20)
end)

t.test("catches it", function()
  local w = t.world({ rules = { "predator" }, agent = { 100, 100 }, mates = { { 1, 0, species = "prey" } },
    species = { collide = false } })
  w:step(2)
  t.equal(w:count("prey"), 0)
end)
