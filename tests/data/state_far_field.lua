-- tests/data/state_far_field.lua — a flock whose rule declares a field starting at math.huge: its state saves and loads (tests/test_state.c).
return {
  world = { width = 100, height = 100, dt = 0.05 },
  behaviours = { "../behaviours" },
  species = {
    { name = "boid", count = 10, rules = { "separation", "far_field" } },
  },
}
