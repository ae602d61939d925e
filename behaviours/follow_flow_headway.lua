-- behaviours/follow_flow_headway.lua — follow a flow field no faster than the gap ahead allows (Tordeux, Chraibi & Seyfried 2016, "Collision-free speed model for pedestrian dynamics", the speed function).
-- The wanted direction is the field's, e = w / |w|, read where the agent is (Reynolds' flow field
-- following, as follow_flow). Of the flock-mates in its path, those ahead (d · e > 0) whose bodies
-- cross the line along e (|d × e| < l, l = body_length, a body's diameter), the nearest sits at
-- distance s; the speed is the model's optimal-velocity function
--   V(s) = min(|w|, max(0, (s - l) / T)),
-- zero at contact and the free speed past a gap of T |w| (T = time_gap, seconds). The wanted
-- velocity V(s) e is reached with a gain k:  a = k (V(s) e - v).  This is what gives a crowd its
-- fundamental diagram: ORCA alone lets a packed crowd walk at the free speed if all go the same way,
-- since their relative velocities are zero (docs/steering-routes.md, "Pedestrian standards").
return {
  params = {
    field = { "flow", help = "the scenario's flow field followed (flow_fields.NAME)" },
    time_gap = { 1, min = 1e-3, max = 100, help = "T, seconds: the gap ahead it keeps, T times its speed past contact" },
    gain = { 10, min = 0, max = 100, help = "k, 1/s: how fast the velocity turns into the wanted one" },
  },

  steer = function(a, p, s)
    local wx, wy = fb.flow(p.field, a.x, a.y)
    local w = math.sqrt(wx * wx + wy * wy)
    if w == 0 then
      return -p.gain * a.vx, -p.gain * a.vy
    end
    local ex, ey, l = wx / w, wy / w, s.body_length
    local gap = math.huge
    for k = 1, a.n do
      local dx, dy, dist = a:neighbour(k)
      if dx * ex + dy * ey > 0 and math.abs(dx * ey - dy * ex) < l and dist < gap then
        gap = dist
      end
    end
    local speed = math.min(w, math.max(0, (gap - l) / p.time_gap))
    return p.gain * (speed * ex - a.vx), p.gain * (speed * ey - a.vy)
  end,
}
