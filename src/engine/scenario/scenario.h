// scenario.h — reading the table a scenario script returns into an fbScenarioDef.
#ifndef FB_SCENARIO_H
#define FB_SCENARIO_H

#include <lua.h>

#include "defs.h"

// Reads the scenario table at index root of L (the script's result) into d: world, terrain,
// obstacles, goals, paths (scenario_paths.h), rule folders, species with their rules and
// parameters, agents placed by hand. Hooks and metrics are the scenario host's (hooks.h). Every
// read runs in a protected call, so a metamethod that fails is reported as the scenario's error.
// On failure writes one message naming the file and the field
// ("scripts/x.lua: species[1].vision.fov: must be between 0 and 360").
bool fbScenario_Read(lua_State *L, int root, const char *path, fbScenarioDef *d, char *err, size_t errlen);

// The comment the file at path opens with ("-- " lines at the top, dashes removed), into out; ""
// when it has none or cannot be read. A scenario's description when it gives none.
void fbScenario_HeaderComment(const char *path, char *out, size_t len);

#endif
