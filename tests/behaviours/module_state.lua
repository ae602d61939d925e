-- tests/behaviours/module_state.lua — test-only: the classic mistake, state kept between calls in a module-level variable.
-- Each call drifts by how many calls this module's copy has seen: that depends on how many agents
-- its worker thread handled before, so the result changes with the thread count and agent order.
local calls = 0

return {
  steer = function(a)
    calls = calls + 1
    return 0.001 * (calls % 7), 0
  end,
}
