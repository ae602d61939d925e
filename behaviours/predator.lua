-- behaviours/predator.lua — seek the nearest prey in view, catch it within a radius, then rest (Gamlen 3.8's predator and prey; the seek is Gompert eq. 5-6 at full speed).
-- Prey in view = the agents of species `prey` within `radius` (the vision radius when 0), all
-- round: a predator that has just overshot its prey turns back for it. It seeks the nearest one
-- at full speed, v_p = max_speed toward it:
--   fraction = gain * (v_p - v) / (max_speed / 2), capped at 1;  a = fraction * max_accel.
-- Within `catch` (centre to centre) the prey is removed through the command queue with
-- a:remove(id), after the step; the engine counts each removal once (fb.catches()), even when
-- two predators grab the same prey. Respawning is the scenario's choice (fb.spawn in on_step).
-- After a catch the predator rests for `rest` seconds (field `resting`, seconds left): it brakes,
-- a = -v / dt, and ignores prey. Returns 0, 0 when there is nothing to do, so wander can act.
local sqrt = math.sqrt

return {
  params = {
    prey = "prey", -- the species hunted
    radius = 0,    -- how far prey is seen, world units (0 = the species' vision radius)
    catch = 1.5,   -- catching distance, centre to centre, world units
    rest = 4,      -- seconds of rest after a catch
    gain = 1,
  },

  fields = { resting = 0 },

  validate = function(p)
    if not (p.radius >= 0) then
      return "radius", "must be >= 0 (0 = the species' vision radius)"
    end
    if not (p.catch >= 0) then
      return "catch", "must be >= 0"
    end
    if not (p.rest >= 0) then
      return "rest", "must be >= 0 seconds"
    end
    if not (p.gain >= 0) then
      return "gain", "must be >= 0"
    end
  end,

  steer = function(a, p, s)
    local resting = a:get("resting")
    if resting > 0 then
      resting = resting - s.dt
      a:set("resting", resting > 0 and resting or 0)
      return -a.vx / s.dt, -a.vy / s.dt
    end
    local dx, dy, dist, _, _, id = a:nearest(p.prey, p.radius > 0 and p.radius or s.radius)
    if dx == nil then
      return 0, 0
    end
    if dist <= p.catch then
      a:remove(id)
      a:set("resting", p.rest)
      return -a.vx / s.dt, -a.vy / s.dt
    end
    local k = p.gain / (s.max_speed / 2)
    local speed = s.max_speed / dist
    local fx, fy = (dx * speed - a.vx) * k, (dy * speed - a.vy) * k
    local f = sqrt(fx * fx + fy * fy)
    if f > 1 then
      fx, fy = fx / f, fy / f
    end
    return fx * s.max_accel, fy * s.max_accel
  end,
}
