-- tests/data/sweep_outcomes.lua — ten boids whose runs end in different ways, for tests/cli_sweep.sh: by seed, some stop early with the outcome "early" and the others reach the step limit; in a world wider than 150 the hook fails at step 10 (a failed run).
local early = math.random() < 0.5  -- the scenario's math.random is seeded from the run's seed
return {
  world = { width = 100, height = 100, dt = 0.05 },
  species = { { name = "boid", count = 10, rules = { { "separation" } } } },
  on_step = function(step)
    if fb.world.width > 150 and step == 10 then
      error("a hook that fails in wide worlds")
    end
    if early and step == 5 then
      fb.stop("early")
    end
  end,
}
