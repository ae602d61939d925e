// species_index.c — the agents of each species in storage order: a counting sort by species.
#include "species_index.h"

#include <stdlib.h>

#include "memory.h"

void fbSpeciesIndex_Free(fbSpeciesIndex *x)
{
  free(x->member);
  *x = (fbSpeciesIndex){0};
}

void fbSpeciesIndex_Build(fbSpeciesIndex *x, const uint8_t *species, int count, int species_count)
{
  FB_ASSERT(count >= 0 && species_count >= 0 && species_count <= FB_MAX_SPECIES);
  if (x->capacity < count) {
    x->capacity = count;
    x->member = fbMemory_Grow(x->member, sizeof *x->member, (size_t)count);
  }
  int *first = x->first;
  for (int s = 0; s <= species_count; ++s) {
    first[s] = 0;
  }
  // Counts land one slot ahead, so the running sum leaves first[s] where species s begins.
  for (int i = 0; i < count; ++i) {
    if (species[i] < species_count) {
      first[species[i] + 1]++;
    }
  }
  for (int s = 0; s < species_count; ++s) {
    first[s + 1] += first[s];
  }
  int next[FB_MAX_SPECIES];
  for (int s = 0; s < species_count; ++s) {
    next[s] = first[s];
  }
  for (int i = 0; i < count; ++i) {
    if (species[i] < species_count) {
      x->member[next[species[i]]++] = i;
    }
  }
  x->species_count = species_count;
}

int fbSpeciesIndex_Count(const fbSpeciesIndex *x, uint32_t mask)
{
  int n = 0;
  for (int s = 0; s < x->species_count; ++s) {
    if ((mask >> s) & 1u) {
      n += x->first[s + 1] - x->first[s];
    }
  }
  return n;
}
