0
return a:neighbour(0), a:neighbour(1e9), a:neighbour_field(1, "mark"), a:get("nope")
