-- behaviours/alignment_gompert.lua — match the mean velocity of the flock-mates in view (Gompert, Flocking Over 3D Terrain, section 3 and appendix A matchHeading).
-- fraction = gain * (mean v - v) / (max_speed / 2), its length capped at 1;  a = fraction * max_accel.
-- Gompert's rules return fractions of the largest acceleration so the prioritised accumulator can
-- hand out a budget of 1 (his navigator).
local sqrt = math.sqrt

return {
  params = { gain = 1 },

  validate = function(p)
    if not (p.gain >= 0) then
      return "gain", "must be >= 0"
    end
  end,

  steer = function(a, p, s)
    if a.n == 0 then
      return 0, 0
    end
    local k = p.gain / (s.max_speed / 2)
    local fx, fy = (a.avx - a.vx) * k, (a.avy - a.vy) * k
    local len = sqrt(fx * fx + fy * fy)
    if len > 1 then
      fx, fy = fx / len, fy / len
    end
    return fx * s.max_accel, fy * s.max_accel
  end,
}
