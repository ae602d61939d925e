// overrides.h — --set NAME=VALUE: changes to a scenario's description, through the same schema its reader uses.
#ifndef FB_OVERRIDES_H
#define FB_OVERRIDES_H

#include "defs.h"

// Applies each NAME=VALUE in order. Dotted names reach scenario fields (world.width, terrain.height,
// name), species fields (boid.max_speed, boid.vision.fov, boid.spawn.heading), rule slots
// (boid.cohesion.weight) and rule parameters (boid.cohesion.divisor, checked when the rule loads).
// On failure writes one message naming the override and the field.
bool fbOverrides_Apply(fbScenarioDef *d, const char *const *sets, int count, char *err, size_t errlen);

// A rule parameter from text, typed as Lua would read it: 3 an integer, 2.5 a number, true or
// false a boolean, anything else a string. p->text keeps the text as written whatever it reads as,
// so that a string parameter can take "3" or "true". False if the name or the text is too long.
bool fbOverrides_ParseParam(const char *name, const char *text, fbParamDef *p);

#endif
