// determinism.h — a scenario run three ways (1 thread, N threads, agents stored in reverse) and the first place they differ.
#ifndef FB_DETERMINISM_H
#define FB_DETERMINISM_H

#include "sim.h"

// Where and how the runs first differed (when `same` is false).
typedef struct fbDeterminismReport {
  bool same;                 // every step identical in all three runs
  long steps;                // steps compared
  int threads;               // the parallel run's thread count
  bool threads_differ;       // the N-thread run left the 1-thread one at `step`
  bool order_differs;        // the reversed-storage run did
  long step;                 // the first step after which a run differed (0: already at the start)
  uint32_t agent;            // the smallest id whose state differed (0: the sets of agents differ)
  char species[FB_NAME_LEN];
  double reference[4], other[4];  // its x, y, vx, vy in the 1-thread run and in the first differing one
  char rule[FB_NAME_LEN];    // the first of its rules whose output differed at that step ("" if none did)
  double rule_reference[2], rule_other[2];
} fbDeterminismReport;

/*
 * Loads the scenario three times with the same seed and options: on 1 thread, on `threads`
 * threads, and on 1 thread with the agents stored in reverse order; steps them together and
 * compares every agent's position and velocity, bit for bit, after each step. At the first
 * difference it steps the two runs that differ again up to that step, watching the agent, to
 * name the first rule whose output differed. False (message in err) if the scenario does not load
 * or a hook fails.
 */
bool fbDeterminism_Check(const char *path, const fbRunOptions *options, long steps, int threads,
                         fbDeterminismReport *report, char *err, size_t errlen);

// The report in words, with what such a difference usually means.
void fbDeterminism_Print(const fbDeterminismReport *report, const char *path, FILE *out);

#endif
