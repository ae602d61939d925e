-- behaviours/follow_flow.lua — steer toward the flow field's velocity where the agent will be (Reynolds 1999, "Steering Behaviors For Autonomous Characters", flow field following).
-- Reynolds: "the future position of a character is estimated and the flow field is sampled at that
-- location. This flow direction is the desired velocity". With the predicted position
--   p' = p + v T   (T = predict, seconds) and w = F(p') the field there (fb.flow, bilinear in C),
-- the steering is the velocity difference turned into an acceleration with a gain k (1/s):
--   a = k (w - v),
-- so v relaxes toward w with time constant 1/k whatever the step (units/s², the same at any dt).
-- A field faster than max_speed is followed at max_speed (the engine limits the speed).

return {
  params = {
    field = { "flow", help = "the scenario's flow field followed (flow_fields.NAME)" },
    predict = { 0.5, min = 0, max = 10, help = "look-ahead T, seconds: the field is read at p + v T" },
    gain = { 2, min = 0, max = 100, help = "k, 1/s: how fast the velocity turns into the field's" },
  },

  steer = function(a, p)
    local wx, wy = fb.flow(p.field, a.x + a.vx * p.predict, a.y + a.vy * p.predict)
    return p.gain * (wx - a.vx), p.gain * (wy - a.vy)
  end,
}
