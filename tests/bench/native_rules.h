// native_rules.h — the classic flock's rules written in C, the baseline the Lua rules are measured against.
#ifndef FB_NATIVE_RULES_H
#define FB_NATIVE_RULES_H

#include "sim_internal.h"  // white-box: reads and sets the sim's members

// Replaces every rule of every species that has a C twin (separation, alignment, cohesion,
// soft_bounds) by that twin; returns false if some rule has none.
bool fbNative_Install(fbSim *sim);

#endif
