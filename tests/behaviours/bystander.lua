-- tests/behaviours/bystander.lua — test-only: reads everything a tamperer might spoil, each call afresh.
-- Toward the goal "home" with steering.tend, away from its first flock-mate, scaled by values from
-- math, string, fb.world and the species: any change to those shows in the agents' paths.
return {
  params = { divisor = { 400, min = 1, help = "tend divisor" } },
  steer = function(a, p, s)
    local hx, hy = fb.goal("home")
    local scale = math.sqrt(math.abs(s.max_accel)) / math.sqrt(20) * #string.format("%d", 42) / 2
    local ax, ay = steering.tend(hx - a.x, hy - a.y, p.divisor * fb.world.dt / s.dt, fb.world.dt, s.max_accel)
    if a.n > 0 then
      local dx, dy = a:neighbour(1)
      ax, ay = ax - 0.05 * dx, ay - 0.05 * dy
    end
    return ax * scale, ay * scale
  end,
}
