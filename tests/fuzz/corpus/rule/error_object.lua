0
error(setmetatable({}, { __tostring = function() return "an object" end }))
