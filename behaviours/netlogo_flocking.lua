-- behaviours/netlogo_flocking.lua — separate from the nearest bird if too close, else align with and cohere to the flock-mates in view, each by a turn of a few degrees at most (Wilensky 1998, NetLogo's Flocking model).
-- Per tick, with the flock-mates within the vision radius (the species' vision, all round):
--   nearest closer than min_separation:  turn away from its heading, by at most max_separate_turn;
--   else:  turn toward the flock-mates' mean heading (the direction of the sum of their unit
--          headings), by at most max_align_turn, then toward the mean direction to them (the sum
--          of the unit vectors toward each), by at most max_cohere_turn.
-- "Turn toward h by at most m": the signed angle from the heading to h, cut to [-m, m]; "away":
-- the signed angle from h to the heading. Then the bird moves one tick at `speed`. Like Vicsek's,
-- the model is a map with one step per tick (the scenario's dt = 1): the rule sets the velocity,
-- a = (v_new - v) / dt, with semi_implicit moving the bird by it (docs/experiments.md, Vicsek).
local atan, cos, sin, rad, pi, sqrt = math.atan, math.cos, math.sin, math.rad, math.pi, math.sqrt

-- The signed angle from a to b, in (-pi, pi].
local function angle_from(a, b)
  local d = (b - a) % (2 * pi)
  return d > pi and d - 2 * pi or d
end

-- heading turned toward `to` by at most `most` (radians).
local function turn_toward(heading, to, most)
  local d = angle_from(heading, to)
  return heading + (d > most and most or d < -most and -most or d)
end

return {
  params = {
    min_separation = { 1, min = 0, help = "closer than this, the nearest flock-mate is turned away from, patches" },
    max_align_turn = { 5, min = 0, max = 180, help = "the largest turn toward the flock-mates' mean heading, degrees per tick" },
    max_cohere_turn = { 3, min = 0, max = 180, help = "the largest turn toward the flock-mates' mean direction, degrees per tick" },
    max_separate_turn = { 1.5, min = 0, max = 180, help = "the largest turn away from the nearest one's heading, degrees per tick" },
    speed = { 1, min = 0, help = "patches per tick" },
  },

  steer = function(a, p)
    local heading = atan(a.hy, a.hx)
    if a.n > 0 then
      local hx, hy, tx, ty = 0, 0, 0, 0 -- sums of unit headings, and of unit directions to them
      local nearest, nearest_heading = math.huge, 0
      for k = 1, a.n do
        local dx, dy, dist, vx, vy = a:neighbour(k)
        local speed = sqrt(vx * vx + vy * vy)
        if speed > 0 then
          hx, hy = hx + vx / speed, hy + vy / speed
        end
        if dist > 0 then
          tx, ty = tx + dx / dist, ty + dy / dist
        end
        if dist < nearest then
          nearest, nearest_heading = dist, atan(vy, vx)
        end
      end
      if nearest < p.min_separation then
        heading = heading - (turn_toward(heading, nearest_heading, rad(p.max_separate_turn)) - heading)
      else
        if hx ~= 0 or hy ~= 0 then
          heading = turn_toward(heading, atan(hy, hx), rad(p.max_align_turn))
        end
        if tx ~= 0 or ty ~= 0 then
          heading = turn_toward(heading, atan(ty, tx), rad(p.max_cohere_turn))
        end
      end
    end
    local dt = fb.world.dt
    return (p.speed * cos(heading) - a.vx) / dt, (p.speed * sin(heading) - a.vy) / dt
  end,
}
