-- tests/behaviours/far_field.lua — a rule whose field starts at math.huge (no distance seen yet), which a saved state must keep (tests/test_state.c).
return {
  fields = { nearest_seen = math.huge },
  steer = function(a)
    return 0, 0
  end,
}
