// closest_pair.h — the closest two agents of two groups (or of one), and the pairs closer than a distance, found by a sweep along x.
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

// How many pairs, one agent from group_a and one from group_b, are closer than `distance`
// (dx^2 + dy^2 < distance^2); when same is true the groups are one list and each unordered pair of
// two different agents counts once. Through the nearest image on a torus (wrap).
long fbClosestPair_CountWithin(const fbAgents *a, const int *group_a, int na, const int *group_b, int nb, bool same,
                               double distance, bool wrap, double world_w, double world_h, fbClosestScratch *s);

#endif
