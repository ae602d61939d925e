-- tests/behaviours/calls_then_scales.lua — test-only: calls the steering library (another file), then goes on; tests/dap_client.py stops after the call.
local seek = steering.seek
return {
  steer = function(a, p, s)
    local ax, ay = seek(a, s, a.cx - a.x, a.cy - a.y)
    local half = 0.5
    return ax * half, ay * half
  end,
}
