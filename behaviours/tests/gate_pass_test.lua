-- behaviours/tests/gate_pass_test.lua — what behaviours/gate_pass.lua promises, in real worlds (flockbox test behaviours/).
-- Parker's tend to place toward the gate ((q - p) / 100 / 0.05^2) until within reach 3 of it; from
-- then on (the field passed = 1) toward the goal beyond it, the pasture.
local t = require("flockbox.test")

local function steer(gate)
  return t.steer("gate_pass", { agent = { 100, 100 }, goals = { gate = gate, pasture = { 140, 130 } } })
end

t.test("tends to the gate, not through yet", function()
  local ax, ay, w = steer({ 150, 100 })
  t.near2(ax, ay, 200, 0, 1e-9)
  t.equal(w:field("passed"), 0)
end)

t.test("within reach of the gate: through, and on to the pasture", function()
  local ax, ay, w = steer({ 102, 100 })
  t.near2(ax, ay, 160, 120, 1e-9)
  t.equal(w:field("passed"), 1)
end)

t.test("once through, the gate no longer pulls", function()
  local w = t.world({ rules = { "gate_pass" }, agent = { 100, 100 }, goals = { gate = { 102, 100 }, pasture = { 140, 130 } } })
  w:step(1) -- through
  local a = w:agent() -- where the next step's rules see it
  local ax, ay = w:steer(1)
  t.near2(ax, ay, (140 - a.x) * 4, (130 - a.y) * 4, 1e-9) -- / 100 / 0.05^2
end)

t.test("over a run it goes through the gate first", function()
  local w = t.world({ rules = { "gate_pass" }, agent = { 40, 100 }, goals = { gate = { 100, 100 }, pasture = { 100, 160 } } })
  local passed_at
  for k = 1, 400 do
    w:step(1)
    if passed_at == nil and w:field("passed") == 1 then
      passed_at = k
      t.less(t.length(w:agent().x - 100, w:agent().y - 100), 3 + 10 * 0.05, "near the gate when it counts")
    end
  end
  t.ok(passed_at ~= nil, "went through")
end)

t.test("reach 0 is refused", function()
  t.fails(function()
    t.world({ rule = "gate_pass", params = { reach = 0 } })
  end, "reach")
end)
