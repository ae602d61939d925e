0
return 0, 0 end, check = function(p) error("check fails") end, x = function() return 1
