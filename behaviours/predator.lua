-- behaviours/predator.lua — seek the nearest prey in view, catch it within a radius, then rest (Gamlen 3.8's predator and prey; the seek is Gompert eq. 5-6 at full speed).
-- Prey in view = the agents of species `prey` within `radius` (the vision radius when 0), all
-- round: a predator that has just overshot its prey turns back for it. It seeks the nearest one
-- at full speed, v_p = max_speed toward it (steering.seek):
--   fraction = gain * (v_p - v) / (max_speed / 2), capped at 1;  a = fraction * max_accel.
-- Within `catch` (centre to centre; colliding bodies stop at the sum of their radii, so catch must
-- reach past it) the prey is removed through the command queue with
-- a:remove(id), after the step; the engine counts each removal once (fb.catches()), even when
-- two predators grab the same prey. Respawning is the scenario's choice (fb.spawn in on_step).
-- After a catch the predator rests for `rest` seconds (field `resting`, seconds left): it brakes,
-- a = -v / dt, and ignores prey. Returns 0, 0 when there is nothing to do, so wander can act.
local seek = steering.seek
local world = fb.world

return {
  params = {
    prey = { "prey", help = "the species hunted (the nearest of its agents)" },
    radius = { 0, min = 0, circle = true, help = "how far prey is seen, world units (0 = the species' vision radius)" },
    catch = { 1.5, min = 0, circle = true, help = "catching distance, centre to centre, world units" },
    rest = { 4, min = 0, help = "seconds of rest after a catch" },
    gain = { 1, min = 0, help = "how hard the velocity is steered toward the prey (Gompert eq. 6)" },
  },

  fields = { resting = 0 },

  steer = function(a, p, s)
    local dt = world.dt
    local resting = a.resting
    if resting > 0 then -- resting: count down, and brake
      resting = resting - dt
      a:set("resting", resting > 0 and resting or 0)
    else
      local dx, dy, dist, _, _, id = a:nearest_agent(p.prey, p.radius > 0 and p.radius or s.radius)
      if dx == nil then
        return 0, 0
      end
      if dist > p.catch then
        return seek(a, s, dx, dy, s.max_speed, p.gain)
      end
      a:remove(id) -- caught: rest from now on, and brake
      a:set("resting", p.rest)
    end
    return -a.vx / dt, -a.vy / dt
  end,
}
