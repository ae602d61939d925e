-- .luacheckrc — luacheck over flockbox's Lua: the globals each sandbox really has (types/luacheck_std.lua, written by the engine).
-- Run `luacheck .` from the repository's root, or `flockbox --lint FILE...` on files of your own.
local sandbox = require("types.luacheck_std")

stds.flockbox_rule = sandbox.rule             -- rules, helper modules, the steering library
stds.flockbox_scenario = sandbox.scenario     -- scenarios and their functions (fb.count, math.random, ...)
stds.flockbox_experiment = sandbox.experiment -- a sweep's experiment file: plain data

-- A file luacheck cannot place by its folder may be a rule, a helper or a scenario: it gets the
-- globals of either (`flockbox --lint FILE` reads what the file returns and checks it as what it is).
std = "flockbox_rule+flockbox_scenario"
files["behaviours"] = { std = "flockbox_rule" }
files["behaviours/tests"] = { std = "lua54" }          -- the shipped rules' tests (and their slot lists: plain tables)
files["tests/behaviours"] = { std = "flockbox_rule" }
files["**/*_test.lua"] = { std = "lua54" }             -- rule tests: plain Lua, run by `flockbox test`
files["lib"] = { std = "lua54" }                       -- flockbox test's harness
files["scripts"] = { std = "flockbox_scenario" }
files["tests/data"] = { std = "flockbox_scenario" }
files["tools"] = { std = "flockbox_scenario" }         -- helper scenarios (tools/terrain_slopes.lua)
files["experiments"] = { std = "flockbox_experiment" }

-- Not a sandbox matter: one-line headers and parameter tables with their help run long on purpose.
max_line_length = false

ignore = {
  -- `not (x > y)` is how a rule says "x <= y, or either is NaN": a NaN distance or parameter must
  -- take the safe branch, which `x <= y` would not.
  "581",
  -- steer(a, p, s), validate(p, s), on_step(step): the engine's signatures, whatever a rule uses.
  "212/a", "212/p", "212/s", "212/step",
}

exclude_files = {
  "build*/**", "types/**",
  -- Test drivers run by the plain lua5.4 interpreter, outside any sandbox (they read files).
  "tests/include_graph.lua", "tests/scenario_types_cover.lua", "tests/source_map.lua", "tools/source_map.lua",
  "tests/fuzz/**",  -- the fuzzers' inputs: whatever a fuzzer kept
  -- Rules that attack the sandbox or break on purpose, for the tests that check it holds.
  "tests/behaviours/sandbox_probe.lua", "tests/behaviours/tamper.lua", "tests/behaviours/finalizer.lua",
}
