return {
  world = { width = 200, height = 200 },
  species = { { name = "s", count = 1, rules = { { "wander" } } } },
  on_step = function(step)
    for i = 1, 300 do fb.spawn("s", i % 200, step * 7) end
    for a in fb.agents() do if a.id % 2 == 0 then fb.remove(a.id) end end
  end,
}
