-- tests/behaviours/memory_bomb.lua — a rule that keeps every string it makes until memory runs out.
local hoard = {}
return {
  params = {},
  steer = function(a, p, s)
    local chunk = string.rep("x", 1 << 20)
    while true do
      hoard[#hoard + 1] = chunk .. #hoard
    end
  end,
}
