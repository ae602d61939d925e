-- tests/data/profile_busy.lua — one slow rule among quick ones, for the per-rule profile in the window (test_window.c).
return {
  world = { width = 60, height = 60 },
  behaviours = { "../behaviours" },
  species = { { name = "boid", count = 50,
                rules = { "inert", { "busy", params = { work = 2000000 } }, "separation", "cohesion" } } },
}
