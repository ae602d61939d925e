-- tests/behaviours/fails_sometimes.lua — a rule with a bug: it indexes nil for agents with an even id.
return {
  params = {},
  steer = function(a, p, s)
    if a.id % 2 == 0 then
      local missing = nil
      return missing.x, 0
    end
    return 0, 0
  end,
}
