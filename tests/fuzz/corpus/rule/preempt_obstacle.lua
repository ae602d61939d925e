<
local dx, dy, dist, nx, ny = a:nearest_obstacle(10)
return nx or 0, ny or 0
