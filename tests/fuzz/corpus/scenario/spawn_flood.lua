return {
  world = { width = 50, height = 50 },
  species = { { name = "s", count = 1, rules = { { "wander" } } } },
  on_step = function(step)
    for i = 1, 2000 do fb.spawn("s", i % 50, step) end
    for a in fb.agents() do if a.id % 2 == 0 then fb.remove(a.id) end end
  end,
}
