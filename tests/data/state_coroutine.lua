-- tests/data/state_coroutine.lua — a hook that keeps a coroutine in an upvalue, which a saved state cannot hold (tests/test_state.c).
local ticks = 0
local ticker = coroutine.create(function()
  while true do
    ticks = ticks + 1
    coroutine.yield()
  end
end)

return {
  world = { width = 60, height = 60, dt = 0.05 },
  species = { { name = "boid", count = 10, rules = { "separation", "cohesion" } } },
  on_step = function()
    coroutine.resume(ticker)
  end,
  metrics = { { "ticks", function() return ticks end } },
}
