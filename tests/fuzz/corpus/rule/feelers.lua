0
local n = a:count_in_front(s, 10) local dx, dy = a:cast_feeler(5, 1) local ex, ey = a:silhouette_edge(8, 1)
return (dx or 0) + n, (ey or 0)
