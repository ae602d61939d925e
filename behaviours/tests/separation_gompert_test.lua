-- behaviours/tests/separation_gompert_test.lua — what behaviours/separation_gompert.lua promises, in real worlds (flockbox test behaviours/).
local t = require("flockbox.test")

t.test("pushes a mate inside the comfort zone away", function()
  local ax, ay = t.steer("separation_gompert", { agent = { 100, 100, 1, 0 }, mates = { { 3, 0 } } })
  t.away(ax, ay, 3, 0, 30)
end)

t.test("a mate outside the comfort zone: no push", function()
  local ax, ay = t.steer("separation_gompert", { agent = { 100, 100, 1, 0 }, mates = { { 9.5, 0 } } })
  t.zero(ax, ay)
end)
