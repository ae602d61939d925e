-- tests/data/state_cycle.lua — a hook that keeps a table holding itself (t.self = t), which a saved state cannot hold: refused by name, never a crash (cli_state).
local seen = { count = 0 }
seen.self = seen

return {
  world = { width = 60, height = 60, dt = 0.05 },
  species = { { name = "boid", count = 10, rules = { "separation", "cohesion" } } },
  on_step = function()
    seen.count = seen.count + 1
  end,
}
