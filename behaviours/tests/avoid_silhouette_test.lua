-- behaviours/tests/avoid_silhouette_test.lua — what behaviours/avoid_silhouette.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("steers past the obstacle ahead", function()
  local _, ay = t.steer("avoid_silhouette", { agent = { 100, 100, 3, 0 }, obstacles = { { circle = { 110, 101, 3 } } } })
  t.ok(ay ~= 0, "a sideways push")
  t.less(ay, 0, "round the side away from the centre, at +y")
end)
