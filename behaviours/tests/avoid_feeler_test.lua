-- behaviours/tests/avoid_feeler_test.lua — what behaviours/avoid_feeler.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("turns away from the obstacle its feeler touches", function()
  local _, ay = t.steer("avoid_feeler", { agent = { 100, 100, 3, 0 }, obstacles = { { circle = { 108, 101, 3 } } } })
  t.less(ay, 0, "away from the obstacle, slightly to +y")
end)
