-- tests/data/described.lua — a scenario whose description field replaces this header comment (test_window.c).
return {
  description = "A scenario that says what it is.",
  world = { width = 50, height = 50 },
  species = { { name = "boid", count = 5, rules = { "cohesion" } } },
}
