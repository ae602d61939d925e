-- behaviours/player_control.lua — the player's unit, driven by the arrow keys in the window and by the scenario's course headless (Bourg & Seemann, AI for Game Developers, ch. 4, the player-controlled unit).
-- fb.input() gives (x, y) in [-1, 1]^2: the arrow keys held in the window, or what the scenario's
-- on_step set with fb.set_input. The input is a direction on the map (y down, like the screen):
-- the unit heads that way at max_speed * |input| (|input| capped at 1). With no input it keeps
-- cruising along its heading, like Bourg's unit whose thrust never stops.
-- Steering toward that velocity v_d as a fraction of max_accel (Gompert eq. 6):
--   a = gain * (v_d - v) / (max_speed / 2), capped at length 1, times max_accel.
local sqrt = math.sqrt

return {
  params = { gain = 1 },

  validate = function(p)
    if not (p.gain >= 0) then
      return "gain", "must be >= 0"
    end
  end,

  steer = function(a, p, s)
    local x, y = fb.input()
    local len = sqrt(x * x + y * y)
    local tx, ty
    if len > 0 then
      local speed = s.max_speed * (len > 1 and 1 or len) / len
      tx, ty = x * speed, y * speed
    else
      tx, ty = a.hx * s.cruise_speed, a.hy * s.cruise_speed
    end
    local k = p.gain / (s.max_speed / 2)
    local fx, fy = (tx - a.vx) * k, (ty - a.vy) * k
    local f = sqrt(fx * fx + fy * fy)
    if f > 1 then
      fx, fy = fx / f, fy / f
    end
    return fx * s.max_accel, fy * s.max_accel
  end,
}
