// closest_pair.h — the closest two agents of two groups (or of one), found by a sweep along x.
#ifndef FB_CLOSEST_PAIR_H
#define FB_CLOSEST_PAIR_H

#include "world.h"

// Scratch kept between calls, so a hook asking every step allocates nothing once it has grown.
typedef struct fbClosestScratch {
  struct fbSweepPoint *points;
  int capacity;
} fbClosestScratch;

void fbClosestScratch_Free(fbClosestScratch *s);

typedef struct fbClosestPair {
  int a, b;         // agent indices, one from each group (-1, -1: no pair)
  double distance;  // INFINITY when there is no pair
} fbClosestPair;

// The closest pair with one agent from group_a and one from group_b (indices into a; when the
// groups are the same list, two different agents), the lowest (distance, id of a, id of b) on ties.
// On a torus (wrap) offsets go through the nearest image.
fbClosestPair fbClosestPair_Find(const fbAgents *a, const int *group_a, int na, const int *group_b, int nb, bool wrap,
                                 double world_w, double world_h, fbClosestScratch *s);

#endif
