return {
  world = { width = 80, height = 60, dt = 0.1, bounds = "wrap" },
  goals = { lamp = { 40, 30 } },
  paths = { { name = "loop", points = { { 10, 10 }, { 70, 10 }, { 40, 50 } }, closed = true, speed = 4 } },
  species = {
    { name = "a", count = 6, spawn = { around = { 40, 30, 10 }, speed = { 1, 3 } },
      rules = { { "seek_goal", params = { goal = "lamp" } }, { "separation" } } },
    { name = "b", count = 4, player = true, rules = { { "player_control" } } },
  },
  on_step = function(step)
    fb.set_goal("lamp", 40 + step, 30)
    fb.set_input(1, -1)
    fb.set_path_speed("loop", step)
    fb.set_weight("a", "separation", 2)
    fb.set_param("a", "seek_goal", "gain", 1)
    for a in fb.agents("a") do
      if a.id % 3 == 0 then fb.remove(a.id) end
    end
    local one = fb.find(1)
    if one then fb.spawn("a", one.x, one.y, one.vy, one.vx) end
    local x, y = fb.path("loop")
    local h, gx, gy = fb.terrain(x or 0, y or 0)
    if fb.count() > 50 or fb.catches() > 0 then fb.stop("crowded") end
    return fb.time(), fb.input(), fb.goal("lamp"), fb.step(), fb.agent(1), h
  end,
  on_key = function(name) fb.spawn("b", 1, 1) end,
  metrics = { { "a_left", function() return fb.count("a") end }, { "t", function() return fb.time() end } },
}
