-- tests/behaviours/coroutine_loop.lua — test-only: loops forever inside a coroutine (wrap or create, as p.how says).
return {
  params = { how = { "wrap", help = "wrap or create" } },
  steer = function(a, p)
    local function spin()
      while true do
      end
    end
    if p.how == "wrap" then
      coroutine.wrap(spin)()
    else
      coroutine.resume(coroutine.create(spin))
    end
    return 0, 0
  end,
}
