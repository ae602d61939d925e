-- behaviours/formation.lua — hold a slot in a squad's formation behind its leader, by offset pursuit (Reynolds, Steering Behaviors For Autonomous Characters, 1999, "Offset Pursuit"; Bourg ch. 4 for the leader).
-- The squad is the agent's flock-mates (its species' vision.sees); its leader is the nearest agent
-- of the species `leader` names, or, with leader = "", the flock-mate elected by the leader rule
-- (field leader = 1, Bourg's Follow the Leader: nobody ahead in the narrow view). An elected agent
-- that leads returns nothing: the species' other rules (follow_path, seek_goal...) steer it.
--
-- Slot assignment without crossings. Every member puts itself and the squad-mates it sees in the
-- leader's frame (side = along the leader's right, ahead = along its heading) and ranks itself
-- along the formation's axis, ties broken by id:
--   line, wedge, slots: by side (left to right);   column: by distance behind;
--   circle: by bearing, clockwise from the leader's heading.
-- Rank k of N (N = the squad-mates it sees + itself) takes the k-th slot in the same order along
-- that axis, so the map from members to slots is monotonic: two members never have to pass each
-- other to reach their slots, and since ranks are recomputed every step from the positions, one
-- pushed out of order (by a tree, a turn, a lost leader) takes the slot of the place it is now in
-- instead of cutting back through the others. Slots, for spacing d:
--   line (abreast): the leader in the middle, members at side = j d, j = -floor(N/2)..-1, 1..;
--   column (file): ahead = -(k+1) d;
--   wedge (V): the floor(N/2) leftmost on the left arm, outermost first, the rest on the right;
--     the j-th of an arm at j d along a line `angle` degrees off straight behind;
--   circle: round the leader at radius max(d, d / (2 sin(pi/N))), slot k at bearing 2 pi (k + 1/2) / N;
--   slots: the module `slots` returns { {x, y}, ... } in spacings, x ahead, y to the right (the
--     world's axes for a leader heading +x); the first N of them, ordered by y, are ranked like a
--     line; members beyond the list queue behind the rearmost slot.
-- The slot is reached by offset pursuit (steering.offset_pursuit): w = v_L + turn perp(o) + q0 / T,
-- capped, where turn is the leader's turn rate measured from its heading a step ago.
local atan, sin, cos, pi, floor, huge = math.atan, math.sin, math.cos, math.pi, math.floor, math.huge
local normalise, length, right_of, from_local = steering.normalise, steering.length, steering.right_of,
  steering.from_local
local offset_pursuit, match_velocity = steering.offset_pursuit, steering.match_velocity

local SHAPES = { line = true, column = true, wedge = true, circle = true, slots = true }
local LOST = { regroup = true, hold = true, free = true }

-- ---- ranking ------------------------------------------------------------------------------------

-- The key a member is ranked by, from its place (side, ahead) in the leader's frame.
local function axis_key(shape, side, ahead)
  if shape == "column" then
    return -ahead
  elseif shape == "circle" then
    local bearing = atan(side, ahead) -- clockwise from the heading, -pi..pi
    return bearing < 0 and bearing + 2 * pi or bearing
  end
  return side
end

-- Rank (0-based) of the agent among its squad-mates along the axis, and the squad's size N.
-- (ldx, ldy): offset to the leader, (hx, hy) its heading, leader_id skipped.
local function rank_in_squad(a, shape, ldx, ldy, hx, hy, leader_id)
  local own_side, own_ahead = right_of(hx, hy, -ldx, -ldy)
  local own = axis_key(shape, own_side, own_ahead)
  local id = a.id
  local rank, size = 0, 1
  for k = 1, a.n do
    local dx, dy, _, _, _, mate = a:neighbour(k)
    if mate ~= leader_id then
      size = size + 1
      local key = axis_key(shape, right_of(hx, hy, dx - ldx, dy - ldy))
      if key < own or (key == own and mate < id) then
        rank = rank + 1
      end
    end
  end
  return rank, size
end

-- ---- slots ----------------------------------------------------------------------------------------

-- The k-th (0-based) of the first `count` entries of a slot list in order of y (then x, then
-- index): found by counting, so nothing is sorted or allocated.
local function kth_by_side(list, count, k)
  for j = 1, count do
    local xj, yj = list[j][1], list[j][2]
    local before = 0
    for i = 1, count do
      local xi, yi = list[i][1], list[i][2]
      if yi < yj or (yi == yj and (xi > xj or (xi == xj and i < j))) then
        before = before + 1
      end
    end
    if before == k then
      return xj, yj
    end
  end
end

-- The rearmost x of a slot list (for the members it has no slot for).
local function rearmost(list)
  local x = 0
  for i = 1, #list do
    x = list[i][1] < x and list[i][1] or x
  end
  return x
end

-- Slot (ahead, right) in world units of rank k among N, in the given shape.
local function slot_of(p, k, size)
  local d = p.spacing
  if p.shape == "line" then
    local j = k - floor(size / 2)
    return 0, (j >= 0 and j + 1 or j) * d
  elseif p.shape == "column" then
    return -(k + 1) * d, 0
  elseif p.shape == "wedge" then
    local left = floor(size / 2)
    local j = k < left and left - k or k - left + 1
    local theta = p.angle * pi / 180
    return -j * d * cos(theta), (k < left and -j or j) * d * sin(theta)
  elseif p.shape == "circle" then
    local radius = size > 2 and d / (2 * sin(pi / size)) or d
    radius = radius > d and radius or d
    local bearing = 2 * pi * (k + 0.5) / size
    return radius * cos(bearing), radius * sin(bearing)
  end
  local list = require(p.slots)
  if k >= #list then -- more members than slots: queue behind the rearmost
    return (rearmost(list) - (k - #list + 1)) * d, 0
  end
  local x, y = kth_by_side(list, size < #list and size or #list, k)
  return x * d, y * d
end

-- ---- the leader -----------------------------------------------------------------------------------

-- The leader elected by the leader rule, as this agent sees it: the one it followed last step if
-- still elected (so leadership does not flicker between two fronts), else the elected flock-mate
-- with the smallest id. Returns "self" when the agent leads, the leader's neighbour index, or nil.
local function elected_leader(a)
  local previous, own = a.follows, a.leader == 1
  if own and previous == a.id then
    return "self"
  end
  local best, best_id = nil, huge
  for k = 1, a.n do
    if a:neighbour_field(k, "leader") == 1 then
      local id = select(6, a:neighbour(k))
      if id == previous then
        return k
      end
      if id < best_id then
        best, best_id = k, id
      end
    end
  end
  if own and a.id < best_id then
    return "self"
  end
  return best
end

-- Offset, velocity and id of the squad's leader; "self" when the agent leads; nil when none is seen.
local function find_leader(a, p, s)
  if p.leader ~= "" then
    local dx, dy, _, vx, vy, id = a:nearest_agent(p.leader, p.sight > 0 and p.sight or s.radius)
    return dx, dy, vx, vy, id
  end
  local k = elected_leader(a)
  if k == "self" or k == nil then
    return k
  end
  local dx, dy, _, vx, vy, id = a:neighbour(k)
  return dx, dy, vx, vy, id
end

-- The leader's unit heading, from its velocity, and its turn rate (rad/s, clockwise positive):
-- the angle from the heading it had a step ago (fields lead_hx, lead_hy, written by this rule
-- when it followed the same leader) to this one, over dt: atan(cross, dot) / dt, which converges
-- to the true rate as dt shrinks. A leader standing still has no heading: the last one seen
-- moving keeps the formation from spinning (the same for every member, since all read it from one
-- snapshot); before any, the agent's own heading.
local function leader_heading(a, vx, vy, id)
  local px, py = a.lead_hx, a.lead_hy
  local known = a.follows == id and (px ~= 0 or py ~= 0)
  local hx, hy, speed = normalise(vx, vy)
  if speed <= 1e-6 then
    if known then
      return px, py, 0
    end
    return a.hx, a.hy, 0
  end
  a:set("lead_hx", hx)
  a:set("lead_hy", hy)
  if not known then
    return hx, hy, 0
  end
  return hx, hy, atan(px * hy - py * hx, px * hx + py * hy) / fb.world.dt
end

-- With no leader in sight.
local function when_lost(a, p, s, speed)
  a:set("follows", 0)
  a:set("slot", 0)
  if p.lost == "hold" then
    return match_velocity(a, s, 0, 0, p.gain)
  elseif p.lost == "regroup" and a.n > 0 then -- offset pursuit of the squad's centre, at no offset
    return offset_pursuit(a, s, a.cx - a.x, a.cy - a.y, a.avx, a.avy, 1, 0, 0, 0, p.lookahead, speed, p.gain)
  end
  return 0, 0
end

-- ---- checks ----------------------------------------------------------------------------------------

-- nil when the module `name` returns a non-empty list of {x, y} pairs of finite numbers; else why not.
local function bad_slot_list(name)
  local ok, list = pcall(require, name)
  if not ok then
    return tostring(list)
  end
  if type(list) ~= "table" or #list == 0 then
    return string.format("module '%s' must return a non-empty list of {x, y} offsets", name)
  end
  for i = 1, #list do
    local o = list[i]
    if type(o) ~= "table" or type(o[1]) ~= "number" or type(o[2]) ~= "number" or o[1] ~= o[1] or o[2] ~= o[2]
      or o[1] == huge or o[1] == -huge or o[2] == huge or o[2] == -huge then
      return string.format("module '%s': entry %d must be {x, y}, two finite numbers", name, i)
    end
  end
end

return {
  params = {
    shape = { "wedge", help = "line (abreast), column (file), wedge (V), circle, or slots (the list module `slots` returns)" },
    slots = { "", help = "with shape = slots: a module beside the rules returning { {x, y}, ... }, in spacings, x ahead, y right" },
    spacing = { 4, min = 0.01, help = "distance between neighbouring slots, world units" },
    angle = { 45, min = 5, max = 85, help = "wedge: each arm's angle off straight behind, degrees" },
    leader = { "", help = "the leader's species (its nearest agent); \"\" = the flock-mate the leader rule elects" },
    sight = { 0, min = 0, help = "with a leader species: how far its agents are seen, world units (0 = vision radius)" },
    lookahead = { 1, min = 0.05, max = 30, help = "offset pursuit's look-ahead, seconds: the slot is aimed at where it will be after T" },
    speed = { 0, min = 0, help = "the fastest approach to the slot, units/s (0 = max_speed)" },
    gain = { 1, min = 0, help = "how hard the velocity is steered to the wanted one (match_velocity's gain)" },
    lost = { "regroup", help = "no leader in sight: regroup (join the mates' centre), hold (brake) or free (other rules steer)" },
  },

  -- leader: set by the leader rule. follows: the leader's id (own id when leading, 0 lost).
  -- slot: rank + 1 along the axis (0: none). slot_dist: distance to the slot (0 when leading or lost).
  -- lead_hx, lead_hy: the leader's heading when last seen moving.
  fields = { leader = 0, follows = 0, slot = 0, slot_dist = 0, lead_hx = 0, lead_hy = 0 },

  validate = function(p, s)
    if not SHAPES[p.shape] then
      return "shape", "must be line, column, wedge, circle or slots"
    end
    if not LOST[p.lost] then
      return "lost", "must be regroup, hold or free"
    end
    if p.shape == "slots" then
      local why = p.slots == "" and "shape = slots needs a module name" or bad_slot_list(p.slots)
      if why then
        return "slots", why
      end
    end
  end,

  steer = function(a, p, s)
    local speed = p.speed > 0 and p.speed or s.max_speed
    local dx, dy, vx, vy, id = find_leader(a, p, s)
    a:set("slot_dist", 0)
    if dx == "self" then
      a:set("follows", a.id)
      a:set("slot", 0)
      return 0, 0
    elseif dx == nil then
      return when_lost(a, p, s, speed)
    end
    local hx, hy, turn = leader_heading(a, vx, vy, id)
    local rank, size = rank_in_squad(a, p.shape, dx, dy, hx, hy, id)
    local ahead, right = slot_of(p, rank, size)
    local ox, oy = from_local(hx, hy, ahead, right)
    a:set("follows", id)
    a:set("slot", rank + 1)
    a:set("slot_dist", length(dx + ox, dy + oy))
    return offset_pursuit(a, s, dx, dy, vx, vy, hx, hy, ahead, right, p.lookahead, speed, p.gain, turn)
  end,
}
