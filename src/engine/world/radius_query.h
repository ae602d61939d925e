// radius_query.h — who is near a point, for rules, hooks and measures: the nearest agent of some species, or every one within a radius.
#ifndef FB_RADIUS_QUERY_H
#define FB_RADIUS_QUERY_H

/*
 * Queries of the grid and positions perception reads (fbPerceptionInput), made at any time by
 * rules (a:nearest, a:count), hooks, ORCA and the measures: no field of view, no sample, inactive
 * agents skipped. Through the block of cells round the point, or through the wanted species'
 * members when they are fewer (species_index.h); both give the same answer to the bit.
 */

#include "perception_types.h"

// When fbPerception_Nearest scans the wanted species' members (radius_query.c) instead of walking the
// grid: when cheaper (the default), always (where the two are known to agree) or never. Both give
// the same answer to the bit; for tests and benchmarks, not to be called while a step runs.
typedef enum fbMemberScan { FB_MEMBERS_WHEN_CHEAPER, FB_MEMBERS_ALWAYS, FB_MEMBERS_NEVER } fbMemberScan;
void fbPerception_ScanMembers(fbMemberScan when);

// Nearest agent to p within radius whose species bit is in species_mask, skipping `exclude` (an
// index, or -1) and inactive agents; no field of view. Ties go to the lower id. Writes its offset
// from p and distance (either may be NULL); returns its index or -1. An infinite radius searches
// outward until something is found.
int fbPerception_Nearest(const fbPerceptionInput *in, fbVec2 p, double radius, uint32_t species_mask, int exclude,
                         fbVec2 *offset, double *distance);

// Calls visit(index, offset, distance, user) for every agent within radius of p whose species bit is
// in species_mask (inactive ones skipped), in grid order. Returns the count.
int fbPerception_ForEach(const fbPerceptionInput *in, fbVec2 p, double radius, uint32_t species_mask,
                         void (*visit)(int index, fbVec2 offset, double distance, void *user), void *user);

#endif
