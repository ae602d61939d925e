local species = setmetatable({}, { __index = function(t, k) if k == "count" then return 4 end error("trap " .. k) end })
species.name = "trapped"
return setmetatable({ species = { species } }, { __index = function(t, k) return nil end, __len = function() return 1e9 end })
