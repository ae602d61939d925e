-- behaviours/tests/formation_test.lua — what behaviours/formation.lua promises, in real worlds (flockbox test behaviours/).
-- Offset pursuit of a slot behind the leader (w = v_L + q0 / T, matched at 4 (w - v): max_speed 10,
-- max_accel 20); members ranked along the formation's axis in the leader's frame take the slots in
-- that order; with no leader species, the flock-mate the leader rule elects leads.
local t = require("flockbox.test")

local SEE = { collide = false, vision = { radius = 50, fov = 360 } }

t.test("pursues the slot behind a given leader, and notes it", function()
  local ax, ay, w = t.steer("formation", { agent = { 100, 100, 5, 0 }, mates = { { 5, 0, 5, 0, species = "lead" } },
    others = { lead = {} }, species = SEE }, { shape = "column", leader = "lead" })
  t.near2(ax, ay, 4, 0, 1e-9) -- the slot 4 behind the leader is 1 ahead: w = (5, 0) + (1, 0)
  t.equal(w:field("follows"), 2, "the leader's id")
  t.equal(w:field("slot"), 1)
  t.near(w:field("slot_dist"), 1, 1e-9)
end)

-- The agent placed at `own` (ahead, right) from a leader heading +x at 5, its squad-mates at
-- `mates`: on the slot its rank gives, it has nothing to do, and its slot number is `slot`.
local function on_slot(shape, own, mates, slot, params)
  local placed = { { -own[1], -own[2], 5, 0, species = "lead" } }
  for k, m in ipairs(mates) do
    placed[k + 1] = { m[1] - own[1], m[2] - own[2], 5, 0 }
  end
  params = params or {}
  params.shape, params.leader, params.spacing, params.sight = shape, "lead", 4, 50
  local ax, ay, w = t.steer("formation", { agent = { 100, 100, 5, 0 }, mates = placed, others = { lead = {} },
    species = SEE }, params)
  t.zero(ax, ay, 1e-9, shape .. ": on its slot")
  t.equal(w:field("slot"), slot, shape .. ": its rank")
  t.near(w:field("slot_dist"), 0, 1e-9, shape .. ": slot_dist")
end

local c45 = 4 * math.cos(math.pi / 4)

t.test("line, column, wedge, circle: each member on the slot of its rank", function()
  on_slot("line", { 0, 4 }, { { 0, -4 }, { 0, 8 } }, 2)
  on_slot("column", { -8, 0 }, { { -4, 0 }, { -12, 0 } }, 2)
  on_slot("wedge", { -2 * c45, 2 * c45 }, { { -c45, -c45 }, { -c45, c45 } }, 3)
  on_slot("wedge", { -4 * math.cos(math.pi / 6), -2 }, { { -3, 3 } }, 1, { angle = 30 })
  on_slot("circle", { -c45, c45 }, { { c45, c45 }, { -c45, -c45 }, { c45, -c45 } }, 2)
end)

t.test("a circle of 8 widens to keep the spacing", function()
  local r, mates = 4 / (2 * math.sin(math.pi / 8)), {}
  for k = 1, 7 do
    local b = 2 * math.pi * (k + 0.5) / 8
    mates[k] = { r * math.cos(b), r * math.sin(b) }
  end
  on_slot("circle", { r * math.cos(math.pi / 8), r * math.sin(math.pi / 8) }, mates, 1)
end)

t.test("slots from a module; members beyond the list queue behind the rearmost", function()
  on_slot("slots", { -8, 0 }, { { -4, -4 }, { -4, 4 } }, 2, { slots = "formation_slots" })
  on_slot("slots", { -12, 0 }, { { -4, -4 }, { -4, -2 }, { -8, -1 } }, 4, { slots = "formation_slots" })
end)

t.test("ties on the axis go by id", function()
  on_slot("line", { 0, -4 }, { { 0, -4 } }, 1) -- the agent, id 1, before the mate
end)

t.test("ranks in the leader's frame: a leader heading down the screen", function()
  -- its right is -x: the agent 4 to its right, the mate 4 to its left; line of 2: the agent's slot is right 4
  local ax, ay, w = t.steer("formation", { agent = { 100, 100, 0, 5 }, others = { lead = {} }, species = SEE,
    mates = { { 4, 0, 0, 5, species = "lead" }, { 8, 0, 0, 5 } } }, { shape = "line", leader = "lead" })
  t.zero(ax, ay, 1e-9)
  t.equal(w:field("slot"), 2)
end)

t.test("with the leader rule: the front one leads, the others take the column behind it", function()
  local w = t.world({ rules = { "leader", { "formation", params = { shape = "column" } } }, agent = { 100, 100, 5, 0 },
    mates = { { -4, 0, 5, 0 }, { -8, 0, 5, 0 } }, species = SEE })
  w:step(2) -- the election is seen a step after the leader rule makes it
  t.equal(w:field("leader", 1), 1, "elected")
  t.equal(w:field("follows", 1), 1, "leads")
  t.equal(w:field("slot", 1), 0)
  for id = 2, 3 do
    t.equal(w:field("follows", id), 1, "follows the front one")
    t.equal(w:field("slot", id), id - 1, "in order behind it")
  end
end)

t.test("no leader in sight: regroup, hold, or free", function()
  local function lost(agent, mates, how)
    local ax, ay, w = t.steer("formation", { agent = agent, mates = mates, others = { lead = {} }, species = SEE },
      { leader = "lead", lost = how })
    t.equal(w:field("follows"), 0, how .. ": follows nobody")
    t.equal(w:field("slot"), 0, how .. ": no slot")
    return ax, ay
  end
  local ax, ay = lost({ 100, 100 }, { { 2, 0 }, { 4, 0 } }, "regroup")
  t.near2(ax, ay, 12, 0, 1e-9) -- to the mates' centre (3, 0)
  ax, ay = lost({ 100, 100, 5, 0 }, nil, "hold")
  t.near2(ax, ay, -20, 0, 1e-9)
  ax, ay = lost({ 100, 100, 5, 0 }, nil, "free")
  t.zero(ax, ay)
end)

t.test("refuses an unknown shape or lost, and slots without a good module", function()
  local function refused(params, name)
    t.fails(function()
      t.world({ rule = "formation", params = params })
    end, name)
  end
  refused({ shape = "hexagon" }, "shape")
  refused({ lost = "panic" }, "lost")
  refused({ shape = "slots" }, "slots")
  refused({ shape = "slots", slots = "nowhere" }, "slots")
  refused({ shape = "slots", slots = "formation_bad_slots" }, "entry 1")
  t.world({ rule = "formation", params = { shape = "slots", slots = "formation_slots" } })
end)

-- ---- worked by hand: the election's memory and the leader's turn (moved from tests/rules_test.lua's
-- mock, the fields it remembers preset with fields = {...}) ------------------------------------------
-- With no leader species, the flock-mates flagged leader (the leader rule's field) are elected and
-- the agent follows one of them. Ids follow placement: the agent 1, its mates 2, 3, ... in order.
local column = { shape = "column" }
local function flock(own_fields, mates)
  return { agent = { 100, 100, 5, 0 }, species = SEE, fields = own_fields, mates = mates }
end

t.test("worked: an elected leader leading last step leads, following itself", function()
  local ax, ay, w = t.steer("formation", flock({ leader = 1, follows = 1 }, { { -4, 0, 5, 0, fields = { leader = 1 } } }), column)
  t.zero(ax, ay)
  t.equal(w:field("follows"), 1)
  t.equal(w:field("slot"), 0)
end)

-- Not flagged: the elected mate at (5, 0) leads; the mate at (-5, 0) is 10 behind it, the agent 5:
-- rank 0, slot 1, 4 behind the leader, (1, 0) from the agent: (4, 0) as for a given leader.
t.test("worked: follows the elected flock-mate, first in the column", function()
  local ax, ay, w = t.steer("formation", flock(nil, { { -5, 0, 5, 0 }, { 5, 0, 5, 0, fields = { leader = 1 } } }), column)
  t.near2(ax, ay, 4, 0, 1e-9)
  t.equal(w:field("follows"), w.mate_ids[2])
  t.equal(w:field("slot"), 1)
end)

-- Two elected in sight, ids 2 and 3: the one followed last step (3) is kept, not the smaller id;
-- with none followed before, the smaller id.
t.test("worked: keeps the leader it followed, else the smallest elected id", function()
  local two = { { 5, 0, 5, 0, fields = { leader = 1 } }, { 5, 3, 5, 0, fields = { leader = 1 } } }
  local _, _, w = t.steer("formation", flock({ follows = 3 }, two), column)
  t.equal(w.mate_ids[2], 3, "ids follow placement")
  t.equal(w:field("follows"), 3, "kept")
  _, _, w = t.steer("formation", flock(nil, two), column)
  t.equal(w:field("follows"), 2, "the smallest")
end)

-- Flagged itself, but an elected flock-mate of smaller id in sight and not leading before: it
-- follows. The agent asked is the mate id 2, flagged; the agent id 1, flagged, is 5 ahead of it.
t.test("worked: two fronts, the smaller id leads", function()
  local w = t.world({ rules = { { "formation", params = column } }, agent = { 105, 100, 5, 0 }, species = SEE,
    fields = { leader = 1 }, mates = { { -5, 0, 5, 0, fields = { leader = 1 } } } })
  w:steer(1, 2)
  t.equal(w:field("follows", 2), 1)
end)

-- The leader's turn: followed last step (follows = its id 2) heading (1, 0), now moving (4, 3):
-- heading (0.8, 0.6), turned by atan(0.6, 0.8) = 0.6435 rad over dt 0.1: 6.435 rad/s. Alone, column,
-- 4 behind: o = -4 (0.8, 0.6) = (-3.2, -2.4); the slot's velocity (4, 3) + 6.435 (2.4, -3.2); the
-- agent on its slot at rest: w = that, capped at 10; a = 4 w capped at 20: along w, 20.
local function led(fields, lead)
  return { agent = { 100, 100 }, species = SEE, world = { dt = 0.1 }, fields = fields, others = { lead = {} },
    mates = { lead } }
end
t.test("worked: the slot swings as the leader turns, and the heading is remembered", function()
  local turn = math.atan(0.6, 0.8) / 0.1
  local wx, wy = 4 + turn * 2.4, 3 - turn * 3.2
  local len = math.sqrt(wx * wx + wy * wy)
  local ax, ay, w = t.steer("formation", led({ follows = 2, lead_hx = 1, lead_hy = 0 },
    { 3.2, 2.4, 4, 3, species = "lead" }), { shape = "column", leader = "lead" })
  t.near2(ax, ay, 20 * wx / len, 20 * wy / len, 1e-9)
  t.near(w:field("lead_hx"), 0.8, 1e-12)
  t.near(w:field("lead_hy"), 0.6, 1e-12)
end)
-- A leader standing still keeps its last heading, (0, 1): the slot 4 behind it is the agent's place.
t.test("worked: a still leader keeps its last heading", function()
  local ax, ay = t.steer("formation", led({ follows = 2, lead_hx = 0, lead_hy = 1 }, { 0, 4, 0, 0, species = "lead" }),
    { shape = "column", leader = "lead" })
  t.zero(ax, ay, 1e-9)
end)
