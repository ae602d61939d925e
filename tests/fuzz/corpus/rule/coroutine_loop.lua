0
local co = coroutine.wrap(function() while true do end end) co() return 0, 0
