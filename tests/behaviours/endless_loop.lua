-- tests/behaviours/endless_loop.lua — a rule that never returns.
return {
  params = {},
  steer = function(a, p, s)
    while true do end
  end,
}
