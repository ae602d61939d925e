-- tests/behaviours/view_player.lua — test-only: accelerates along the arrow keys' input (fb.input()).
return {
  params = { gain = 10 },
  steer = function(a, p)
    local x, y = fb.input()
    return x * p.gain, y * p.gain
  end,
}
