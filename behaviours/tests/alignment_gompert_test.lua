-- behaviours/tests/alignment_gompert_test.lua — what behaviours/alignment_gompert.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("matches the mates' mean velocity", function()
  local ax, ay = t.steer("alignment_gompert", { agent = { 100, 100, 1, 0 }, mates = { { 3, 0, 0, 2 }, { 3, 2, 0, 2 } } })
  t.towards(ax, ay, -1, 2, 30)
end)
