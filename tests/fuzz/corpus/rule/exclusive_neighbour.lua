2
if a.n > 0 then local dx, dy, dist, vx, vy, id = a:neighbour(1) return dx, dy end
return a.cx - a.x, a.cy - a.y
