0
return p.gain, 0 end, params = { gain = { 1e308, min = 0 } }, fields = { mark = 0/0 }, y = function()
