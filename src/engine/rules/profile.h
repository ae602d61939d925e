// profile.h — a per-rule profile: what each rule, each species' view and perception cost per agent-step.
#ifndef FB_PROFILE_H
#define FB_PROFILE_H

#include <stdio.h>

#include "workers.h"
#include "world.h"

/*
 * Off by default (a run pays nothing). When on, every worker thread adds the wall-clock time of
 * each part of its agents' work, read with the monotonic clock on that thread: perception of its
 * range, each species' view fill, each rule call. The step's serial phases (grid, integration,
 * bodies, hooks) are added once per step. Timing a call costs about two clock reads (some tens of
 * nanoseconds, measured at the start and taken off each timing), so shares are right but a
 * profiled run is a little slower. Results never change: only clocks are read.
 */
typedef struct fbProfileCounters {  // one worker thread's sums
  double perception_ns;
  double view_ns[FB_MAX_SPECIES];
  double rule_ns[FB_MAX_SPECIES][FB_MAX_RULES];
  double agent_steps[FB_MAX_SPECIES];
  char pad[64];                     // threads write their own counters: keep them off each other's cache lines
} fbProfileCounters;

typedef struct fbProfile {
  bool on;
  double clock_ns;                  // the cost of one clock read, taken off each timing
  fbProfileCounters threads[FB_MAX_THREADS];
  double serial_ns;                 // grid, integration, bodies, path objects, commands, hooks
  long steps;                       // steps summed since the last reset
} fbProfile;

// One line of the table: a rule, a species' view ("(view)"), perception ("(perception)", all
// species) or the serial phases ("(grid, integration, bodies, hooks)").
typedef struct fbProfileRow {
  char species[FB_NAME_LEN];        // "" for perception and the serial phases
  char part[FB_NAME_LEN + 2];
  double us_per_agent_step;         // microseconds per agent-step of its species (of all agents for "")
  double share;                     // of everything measured, 0..1
} fbProfileRow;

#define FB_PROFILE_MAX_ROWS (FB_MAX_SPECIES * (FB_MAX_RULES + 1) + 2)

double fbProfile_Now(void);                           // monotonic nanoseconds
void fbProfile_Start(fbProfile *p);                   // on, sums cleared, the clock's cost measured
void fbProfile_Reset(fbProfile *p);                   // sums cleared, still on

// The table, most costly first (ties in species and rule order); rule_name(ctx, s, k) names rule k
// of species s. Returns the rows written (at most max; 0 before any step was profiled).
typedef const char *(*fbProfileRuleName)(const void *ctx, int s, int k);
int fbProfile_Table(const fbProfile *p, const fbWorld *w, fbProfileRuleName rule_name, const void *ctx,
                    fbProfileRow *rows, int max);

// The table as text: a header with the steps and threads, one aligned line per row.
void fbProfile_Print(const fbProfileRow *rows, int n, long steps, int threads, FILE *out);

#endif
