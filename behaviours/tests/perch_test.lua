-- behaviours/tests/perch_test.lua — what behaviours/perch.lua promises, in real worlds (flockbox test behaviours/).
-- Parker's perching: a bird glides down (2 sink u dt a step, u uniform) holding its cruising speed;
-- at the ground it perches, held still, for perch_min .. perch_max seconds; then it takes off at full
-- acceleration along its heading, back up at the ceiling.
local t = require("flockbox.test")

t.test("flying: holds the cruising speed, and glides down from below the ceiling", function()
  local ax, ay, w = t.steer("perch", { agent = { 100, 100, 5, 0 } })
  t.near2(ax, ay, 4, 0, 1e-9) -- gain 2 (7 - 5) along the heading
  local alt = w:field("alt")
  t.ok(alt > 0 and alt <= 30, "placed between ground and ceiling")
  w:step(10)
  t.less(w:field("alt"), alt, "lower")
end)

t.test("lands, sits still for a while (whatever its other rules say), then takes off to the ceiling", function()
  local w = t.world({ rules = { { "perch", params = { ceiling = 3 } }, { "wind", params = { x = 3, y = 1 } } },
    agent = { 100, 100, 5, 0 } })
  local landed, x, y, took_off
  for step = 1, 400 do
    w:step(1)
    local a = w:agent()
    if landed == nil and w:field("perch") > 0 then
      landed, x, y = step, a.x, a.y
      t.equal(w:field("alt"), 0, "on the ground")
      local left = w:field("perch")
      t.ok(left >= 2 and left <= 6, "perches perch_min .. perch_max seconds")
    elseif landed and took_off == nil then
      if w:field("perch") > 0 then
        t.equal(a.x, x, "held still")
        t.equal(a.y, y, "held still")
      else
        took_off = step
        t.equal(w:field("alt"), 3, "back at the ceiling")
      end
    end
  end
  t.ok(landed ~= nil, "landed")
  t.ok(took_off ~= nil, "took off again")
  t.ok((took_off - landed) * 0.05 >= 2 - 1e-9, "after perch_min")
end)

t.test("takes off at full acceleration along its heading", function()
  local w = t.world({ rules = { { "perch", params = { ceiling = 3 } } }, agent = { 100, 100, 5, 0 } })
  for _ = 1, 400 do
    local perched = w:field("perch") > 0
    local ax, ay = w:steer(1)
    if perched and w:field("perch") == 0 then
      local a = w:agent()
      t.near(t.length(ax, ay), 20, 1e-9)
      t.towards(ax, ay, a.hx, a.hy, 1)
      return
    end
  end
  t.ok(false, "never took off")
end)

t.test("a ceiling not above the ground is refused", function()
  t.fails(function()
    t.world({ rule = "perch", params = { ground = 5, ceiling = 5 } })
  end, "ceiling")
end)
