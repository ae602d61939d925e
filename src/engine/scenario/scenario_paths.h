// scenario_paths.h — reading a scenario's paths = { ... } into path defs.
#ifndef FB_SCENARIO_PATHS_H
#define FB_SCENARIO_PATHS_H

#include "lua_table.h"

// Reads the list root.paths (if any) into d->paths: each entry's fields through fbPathSchema (so
// unknown fields are refused), its points as {x, y} pairs of finite numbers, its speed as a number
// or a list of {time, speed} pairs. Counts, ranges, repeated points and key order are checked when
// the world is built (fbBuild_World). On failure writes one message naming the file and the field
// ("scripts/x.lua: paths[1].points[3]: item 2: expected a finite number").
bool fbScenario_ReadPaths(fbTableReader *r, fbScenarioDef *d, int root);

#endif
