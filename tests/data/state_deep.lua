-- tests/data/state_deep.lua — a hook that keeps a plain table of tables 16 levels deep in an upvalue: --save-state and the window's rewind must hold it (cli_state).
local function nest(levels)
  local t = { leaf = levels }
  for d = levels - 1, 1, -1 do
    t = { d = d, next = t }
  end
  return t
end

local kept = nest(16)

return {
  world = { width = 60, height = 60, dt = 0.05 },
  species = { { name = "boid", count = 10, rules = { "separation", "cohesion" } } },
  on_step = function(step)
    kept.step = step
  end,
  metrics = { { "kept_step", function() return kept.step or 0 end } },
}
