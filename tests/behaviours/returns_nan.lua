-- tests/behaviours/returns_nan.lua — a rule that returns NaN (0/0) for every agent.
return {
  params = {},
  steer = function(a, p, s)
    return 0 / 0, 0
  end,
}
