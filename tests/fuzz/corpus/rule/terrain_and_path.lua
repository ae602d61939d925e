0
local h, gx, gy = a:terrain() local x, y, tx, ty, v = fb.path("route") return (tx or 0) * v, gx
