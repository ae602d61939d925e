-- behaviours/leader.lua — a unit with no other unit ahead of it in the narrow view becomes leader (Bourg & Seemann, AI for Game Developers, ch. 4, "Follow the Leader").
-- Bourg counts N_f, the units in the narrow view: ahead (w.y > 0 in the unit's own frame), within a
-- wedge |w.x| < front * w.y (front = _FRONT_VIEW_ANGLE_FACTOR; 1 gives +-45 degrees), and within
-- range body lengths (_NARROWVIEW_RADIUS_FACTOR). N_f = 0 makes the unit a leader.
-- Here w.x and w.y are the parts of the offset to the right of and along the heading.
-- Bourg's loop runs over every unit, whatever its type, so by default units of every species count
-- (a:count_in_front): a regular unit with an interceptor ahead of it is not a leader. His loop
-- starts at j = 1, and Units[0] is the player: the player never counts, so a unit chasing the
-- player with nobody else ahead leads (count_player = true counts it too). With
-- own_type = true only the flock-mates the species sees count (its vision.sees; its own type by
-- default), so each unit type elects leaders among its own.
-- The flag is written to the per-agent field `leader` every step, so leadership moves as soon as
-- the front changes; like every field it is read back one step later (a.leader, the viewer paints
-- leaders red). This rule steers nowhere: pair it with chase or intercept (leaders_only = true).
local abs = math.abs
local right_of = steering.right_of

-- own_type: any flock-mate the species sees in the narrow view?
local function mate_in_front(a, limit, front)
  local hx, hy = a.hx, a.hy
  for k = 1, a.n do
    local dx, dy, d = a:neighbour(k)
    if d <= limit then
      local side, ahead = right_of(hx, hy, dx, dy)
      if ahead > 0 and abs(side) < front * ahead then
        return true
      end
    end
  end
  return false
end

return {
  params = {
    front = { 1, help = "narrow view half-width, > 0: |sideways| < front * ahead (Bourg's front factor)" },
    range = { 0, min = 0, help = "narrow view radius in body lengths (Bourg's radius factor); 0 = vision radius" },
    own_type = { false, help = "count only the flock-mates the species sees (false: units of every type, as Bourg)" },
    count_player = { false, help = "the player's unit counts as one in front too (false: as Bourg, whose loop skips Units[0])" },
  },

  fields = { leader = 0 },

  validate = function(p)
    if not (p.front > 0) then
      return "front", "must be positive (1 = a wedge of +-45 degrees)"
    end
  end,

  steer = function(a, p, s)
    local limit = p.range > 0 and p.range * s.body_length or s.radius
    local blocked
    if p.own_type then
      blocked = mate_in_front(a, limit, p.front)
    else
      blocked = a:count_in_front(limit, p.front, nil, not p.count_player) > 0
    end
    a:set("leader", blocked and 0 or 1)
    return 0, 0
  end,
}
