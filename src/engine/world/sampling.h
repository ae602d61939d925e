// sampling.h — Monte Carlo neighbour sampling (vision.sample): what an agent of a sampling species perceives, exact or by Gamlen's looks.
#ifndef FB_SAMPLING_H
#define FB_SAMPLING_H

/*
 * What an agent of a species with vision.sample = k perceives (sampling.c, top): every flock-mate
 * in view closer than the separation radius, and k of the others (vision.sampling: a uniformly
 * random k-subset of those in view, or those in view of k looks at random). Called by
 * perception.c's step, at the plain C level or the AVX2 one; both give the same bits.
 */

#include "perception_kernels.h"

// Agent i, one candidate at a time (kx, ky: the rings of cells its radius needs): its list entries
// from l->len on (kept when keep_list), its sums into *out. filter: test each candidate's species and
// activity (off when the species sees every species and all are active).
void fbSampling_Perceive(const fbPerceptionInput *in, int i, int kx, int ky, fbNeighbourList *l, Seen *out,
                         bool keep_list, bool filter);

#ifdef FB_X86
// The same, four candidates at a time, the list kept when the species' vision.list says so, and agent
// i's aggregates stored. Returns false, having done nothing, for a block left to the plain C level
// (one with min_image, or whose lanes would read past the last agent).
FB_AVX2_CODE bool fbSampling_PerceiveAvx2(const fbPerceptionInput *in, int i, int kx, int ky, bool filter,
                                          fbAggregates *agg, fbNeighbourList *l);
#endif

#endif
