-- tests/data/module_state.lua — a flock with one rule that keeps state in a module-level variable (tests/cli_check_determinism.sh).
return {
  world = { width = 100, height = 100, dt = 0.05 },
  behaviours = { "../behaviours" },
  species = {
    { name = "boid", count = 40, rules = { "separation", { "module_state", name = "drift" }, "cohesion" } },
  },
}
