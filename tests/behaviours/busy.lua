-- tests/behaviours/busy.lua — test-only: agent 1 does `work` loop iterations of arithmetic each step (tens of ms of CPU), then steers nowhere.
return {
  params = { work = { 4000000, min = 0, help = "loop iterations for agent 1" } },
  steer = function(a, p)
    if a.id == 1 then
      local x = 0
      for i = 1, p.work do
        x = x + i * 0.5
      end
      if x < 0 then
        return x, x
      end
    end
    return 0, 0
  end,
}
