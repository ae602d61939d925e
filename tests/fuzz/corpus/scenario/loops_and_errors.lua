local co = coroutine.wrap(function() while true do coroutine.yield(1) end end)
return {
  species = { { name = "s", count = 2, rules = { { "separation" } } } },
  on_step = function(step)
    co()
    if step == 2 then while true do pcall(function() while true do end end) end end
    if step == 3 then error({}) end
    local t = {} for i = 1, 100 do t[i] = string.rep("x", i) end
  end,
}
