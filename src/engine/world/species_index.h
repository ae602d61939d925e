// species_index.h — the agents of each species in storage order, for queries after one species among many.
#ifndef FB_SPECIES_INDEX_H
#define FB_SPECIES_INDEX_H

#include "fb.h"

/*
 * A search for the nearest predator among 2 000 herd animals walks every agent in the cells its
 * radius covers, predators or not. When the wanted species are few, scanning their members alone
 * is cheaper: this index lists them, rebuilt with the grid each step (a counting sort, O(agents)).
 * Members of species s are member[first[s] .. first[s + 1]), ascending, so in the grid's order.
 */
typedef struct fbSpeciesIndex {
  int *member;
  int first[FB_MAX_SPECIES + 1];
  int species_count;
  int capacity;
} fbSpeciesIndex;

void fbSpeciesIndex_Free(fbSpeciesIndex *x);

// Rebuilds it from the agents' species (count agents, species_count species).
void fbSpeciesIndex_Build(fbSpeciesIndex *x, const uint8_t *species, int count, int species_count);

// Members of the species whose bits are in mask (what a scan would test).
int fbSpeciesIndex_Count(const fbSpeciesIndex *x, uint32_t mask);

#endif
