8
return -a.vx * p.gain, -a.vy * p.gain
