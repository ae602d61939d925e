// spawn.h — a scenario's agents at the start: at random in an area or a disc, and placed by hand.
#ifndef FB_SPAWN_H
#define FB_SPAWN_H

#include "defs.h"

// Spawns every species in order: its `count` agents at random as its spawn def says, then the
// agents placed by hand for it. Positions, headings and speeds come from the counter-based generator
// (seed, the new agent's id, step 0), so a seed always gives the same start.
void fbSpawn_All(fbWorld *w, const fbScenarioDef *d);

#endif
