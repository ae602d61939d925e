-- behaviours/alignment_gompert.lua — match the mean velocity of the flock-mates in view (Gompert, Flocking Over 3D Terrain, section 3 and appendix A matchHeading).
-- Gompert's velocity matching (eq. 6 in fraction form, steering.match_velocity) with the
-- flock-mates' mean velocity as the wanted one:
--   fraction = gain * (mean v - v) / (max_speed / 2), its length capped at 1;  a = fraction * max_accel.
-- Gompert's rules return fractions of the largest acceleration so the prioritised accumulator can
-- hand out a budget of 1 (his navigator).
local match_velocity = steering.match_velocity

return {
  params = {
    gain = { 1, min = 0, help = "how hard the velocity is steered toward the mean (Gompert's K in eq. 6)" },
  },

  steer = function(a, p, s)
    if a.n == 0 then
      return 0, 0
    end
    return match_velocity(a, s, a.avx, a.avy, p.gain)
  end,
}
