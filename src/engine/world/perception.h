// perception.h — what each agent sees of its flock-mates, once per step: the aggregates and lists every rule reads.
#ifndef FB_PERCEPTION_H
#define FB_PERCEPTION_H

#include "perception_types.h"

void fbAggregates_Reserve(fbAggregates *a, int count);
void fbAggregates_Free(fbAggregates *a);
void fbNeighbourList_Free(fbNeighbourList *l);

// Perception for agents [begin, end): fills their aggregates and, for species that keep one, their
// lists (list is reset first and serves as scratch otherwise). Of a species with vision.sample = k,
// an agent perceives every flock-mate in view closer than vision.separation_radius (collision
// avoidance is never sampled) and k of the others drawn at random (all of them if no more than k;
// the same on any thread count and storage order): aggregates, nearest and list then cover only
// those, n = close ones + drawn ones. Safe to run concurrently on disjoint ranges with separate lists.
void fbPerceive(const fbPerceptionInput *in, int begin, int end, fbAggregates *agg, fbNeighbourList *list);

// The instruction set of fbPerceive (perception.c): plain C, one candidate at a time, or AVX2, four at
// a time. Both give the same bits.
typedef enum fbSimd { FB_SIMD_SCALAR, FB_SIMD_AVX2, FB_SIMD_BEST } fbSimd;

// The level fbPerceive runs at from now on: the best this CPU has at most `level`. FB_SIMD_BEST (the
// default) is the best there is, unless the environment says FB_SIMD=scalar. For tests and
// benchmarks; not to be called while a step runs. Returns the level it will use.
fbSimd fbPerception_UseSimd(fbSimd level);

// What agent i sees, whatever its species keeps: its flock-mates into list (reset), exactly as
// fbPerceive would list them, and the distance to the nearest (INFINITY if none). Returns how many.
int fbPerceive_One(const fbPerceptionInput *in, int i, fbNeighbourList *list, double *nearest);

#endif
