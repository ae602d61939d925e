-- layers.lua — the source tree's layers, lowest first: a file's folder is its layer, and a file
-- includes headers of its own layer and the layers below only (tests/include_graph.lua checks it;
-- tools/source_map.lua writes docs/architecture.md's map from it). Returns the list.
return {
  { folder = "src/engine/base", what = "what every layer uses: limits and 2D vectors, the log, growing arrays, names, byte buffers, random numbers, SHA-256, finding files, the thread pool." },
  { folder = "src/engine/geometry", what = "the ground and what stands on it, with no agents: terrain, obstacles, regions, flow fields, spline paths." },
  { folder = "src/engine/world", what = "the agents and the native stages of a step: storage, the grid, perception, combiners, integration, bodies, ORCA, measures." },
  { folder = "src/engine/lua", what = "a Lua state made safe: the sandbox, the memory budget, the watchdog, the one protected call, bounds on library calls that loop in C." },
  { folder = "src/engine/scenario", what = "a world's description: the defs a scenario file is read into through the schema, --set, and the world built and peopled from them." },
  { folder = "src/engine/rules", what = "the steering rules: Lua modules in per-thread states, their parameters, the agent view and API they see, their profile." },
  { folder = "src/engine/sim", what = "a running scenario: the step, the public API, the scenario's hooks, state saved and rewound, hot reload, live changes." },
  { folder = "src/engine/run", what = "a run of the program, in the engine library: the command line, the CSV and its metadata, --rules, the editor's types, the determinism check." },
  { folder = "src/view", what = "the window and pictures with SDL2 (the library flockbox_view): drawing, text, docks, the panel, input." },
  { folder = "src/app", what = "the program flockbox: its entry point, headless runs, --lint, --new-rule and sweeps." },
}
