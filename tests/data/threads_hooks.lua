-- tests/data/threads_hooks.lua — hooks that walk the agents in id order many times a step while
-- spawning and removing, on a path with a speed table: test_threads runs two at once, each its own
-- count (--set flock.count=...), so any scratch the two sims shared would hold the other's agents.
-- Every bit of the walks' order reaches the goal the flock seeks, so a wrong order changes the run.
local spawned = 0

return {
  world = { width = 120, height = 120, dt = 0.05, bounds = "wrap" },
  paths = {
    { name = "loop", points = { { 20, 20 }, { 100, 20 }, { 100, 100 }, { 20, 100 } }, closed = true,
      speed = { { 0, 2 }, { 5, 8 }, { 10, 3 }, { 15, 6 } } },
  },
  goals = { spot = { 60, 60 } },
  species = {
    { name = "flock", count = 40, spawn = { area = { 10, 10, 110, 110 }, speed = { 1, 3 } },
      rules = { { "separation" }, { "alignment" }, { "cohesion" }, { "seek_goal", params = { goal = "spot" } },
        { "follow_path", params = { path = "loop", bias = 0.05 } } } },
  },
  on_step = function(step)
    if step % 25 == 0 then
      print("step", step) -- through the one log function, from both sims' threads
    end
    -- Sums whose bits depend on the order of the walks: the k-th agent walked weighs k.
    local s, first = 0, nil
    for _ = 1, 8 do
      local k = 0
      for a in fb.each("flock") do
        k = k + 1
        s = s + a.x * k - a.y / k
        first = first or a.id
      end
      for a in fb.agents() do
        s = s - a.vx * a.id
      end
    end
    local mx = fb.mean("x", "flock")
    local cx, cy = fb.centre()
    fb.set_goal("spot", 10 + s % 100, 10 + (mx * 7 + cx * 3 + cy) % 100)
    -- Ids run ahead of the agents (ten born, ten gone a step), so the walks use both of their
    -- orderings: slots by id while ids are few, a sort once they outnumber the agents.
    for j = 1, 10 do
      spawned = spawned + 1
      fb.spawn("flock", 10 + (spawned * 37) % 100, 10 + (spawned * 53 + step) % 100, j % 3 - 1, 1)
    end
    local gone = 0
    for a in fb.agents("flock") do
      if gone < 10 and (a.id + step) % 2 == 0 then
        fb.remove(a.id)
        gone = gone + 1
      end
    end
    if first ~= nil and gone == 0 then
      fb.remove(first)
    end
  end,
  metrics = { { "spawned", function() return spawned end } },
}
