// build.h — a world from its description: size, terrain, obstacles, goals, paths and species, checked field by field, no Lua involved.
#ifndef FB_BUILD_H
#define FB_BUILD_H

#include "defs.h"

// Builds w (initialised, with no agents) from d: every number checked against the schema, the
// landmarks of each species (defs.h), the species each one sees, the terrain loaded or generated,
// the paths' splines (their points and speeds checked by spline_path.h), the flow fields (a PNG
// loaded, or a function's samples checked) and the regions (checked by region.h).
// The obstacles move from d into w. Rule slots get their weight, force and native function; their
// Lua modules are the rule set's. On failure writes one message naming the file and the field.
bool fbBuild_World(fbWorld *w, fbScenarioDef *d, char *err, size_t errlen);

#endif
