-- tests/behaviours/returns_string.lua — a rule that returns the wrong types.
return {
  params = {},
  steer = function(a, p, s)
    return "left", {}
  end,
}
