3
local dx, dy, dist, vx, vy, id = a:nearest_agent(p.prey, 30)
if dx and dist < 2 then a:remove(id) end
return dx or 0, dy or 0
