-- tests/behaviours/reads_everything.lua — test-only: reads every key of the agent view and 16 declared fields, more values than Lua's minimum stack; fails if one is not a number.
local keys = { "x", "y", "vx", "vy", "hx", "hy", "cx", "cy", "avx", "avy", "sx", "sy", "nearest_dist", "energy",
  "speed", "n", "id", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12", "f13", "f14", "f15", "f16" }

return {
  fields = { f1 = 1, f2 = 2, f3 = 3, f4 = 4, f5 = 5, f6 = 6, f7 = 7, f8 = 8, f9 = 9, f10 = 10, f11 = 11, f12 = 12,
    f13 = 13, f14 = 14, f15 = 15, f16 = 16 },

  steer = function(a)
    for k = 1, #keys do
      if type(a[keys[k]]) ~= "number" then
        error("a." .. keys[k] .. " is " .. tostring(a[keys[k]]))
      end
    end
    if a.f16 ~= 16 or a.id < 1 then
      error("a.f16 = " .. a.f16 .. ", a.id = " .. a.id)
    end
    return 0, 0
  end,
}
