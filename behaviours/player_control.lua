-- behaviours/player_control.lua — the player's unit, driven by the arrow keys in the window and by the scenario's course headless (Bourg & Seemann, AI for Game Developers, ch. 4, the player-controlled unit).
-- fb.input() gives (x, y) in [-1, 1]^2: the arrow keys held in the window, or what the scenario's
-- on_step set with fb.set_input. The input is a direction on the map (y down, like the screen):
-- the unit heads that way at max_speed * |input| (|input| capped at 1). With no input it keeps
-- cruising along its heading, like Bourg's unit whose thrust never stops.
-- Steering toward that velocity v_d as a fraction of max_accel (Gompert eq. 6, steering.match_velocity):
--   a = gain * (v_d - v) / (max_speed / 2), capped at length 1, times max_accel.
local length, match_velocity = steering.length, steering.match_velocity

return {
  params = {
    gain = { 1, min = 0, help = "how hard the velocity is steered toward the wanted one (Gompert eq. 6)" },
  },

  steer = function(a, p, s)
    local x, y = fb.input()
    local len = length(x, y)
    local wx, wy
    if len > 0 then
      local speed = s.max_speed * (len > 1 and 1 or len) / len
      wx, wy = x * speed, y * speed
    else
      wx, wy = a.hx * s.cruise_speed, a.hy * s.cruise_speed
    end
    return match_velocity(a, s, wx, wy, p.gain)
  end,
}
