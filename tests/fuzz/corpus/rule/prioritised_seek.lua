1
local dx, dy = fb.goal("home")
return steering.seek(a, s, dx - a.x, dy - a.y, s.max_speed, p.gain)
