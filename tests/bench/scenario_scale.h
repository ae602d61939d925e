// scenario_scale.h — a shipped scenario at another agent count: the --set overrides that give it N agents in the proportions it ships with.
#ifndef FB_SCENARIO_SCALE_H
#define FB_SCENARIO_SCALE_H

#include "flockbox/flockbox.h"

// Where the scaled species are spawned.
typedef enum fbScaleSpawn {
  FB_SCALE_SPREAD,   // uniformly over the whole world: the density is N over the world's area
  FB_SCALE_SHIPPED,  // where the scenario spawns them (a herd's 20-unit disc then holds all N)
} fbScaleSpawn;

/*
 * The overrides, kept as text with pointers into it for fbRunOptions.sets. A player species keeps
 * its count (there is one player); every other species that has agents gets a share of the rest
 * proportional to the agents it ships with (its count plus the agents the scenario places by
 * hand, which stay), rounded by largest remainder so that the shares add up to N exactly.
 */
typedef struct fbScalePlan {
  char text[FB_MAX_SETS][128];
  int set_count;
  int species_count;
  int agents[FB_MAX_SPECIES];  // each species' agents at the start, after the overrides
  bool scaled[FB_MAX_SPECIES];
} fbScalePlan;

// Loads the scenario once as shipped (one thread, seed 1) to read its species; false with the
// reason in err when it does not load or cannot hold `agents` in its proportions.
bool fbScale_Plan(const char *path, int agents, fbScaleSpawn spawn, fbScalePlan *plan, char *err, size_t errlen);

// Adds the plan's overrides to o (which must have room for them).
void fbScale_Apply(const fbScalePlan *plan, fbRunOptions *o);

#endif
