// profile.h — a per-rule profile: what each rule, each species' view and perception cost per agent-step.
#ifndef FB_PROFILE_H
#define FB_PROFILE_H

#include <stdio.h>

#include "workers.h"
#include "world.h"

/*
 * Off by default (a run pays nothing). When on, every thread adds the CPU time it spent on each
 * part of its agents' work, read with its own thread CPU clock: perception of its range, each
 * species' view fill, each rule call. Each thread also adds the CPU time of its whole share of
 * the step (the calling thread: all of fbSim_Step; a worker: each job it ran). The table's
 * catch-all line is that total less the parts: grid, integration, bodies, ORCA, hooks and the
 * threads' hand-overs.
 *
 * Why CPU time and not the wall clock: a thread that is descheduled (more threads than free
 * cores, a window drawing, a worker waiting to be woken) spends wall time but no CPU time, so
 * wall-clock sums over threads depend on the machine's load and the thread count; CPU sums do
 * not, and the shares on 1 and N threads agree. The sum over threads of the perception, view and
 * rule lines, divided by the threads, is about the wall time of the step's rule phase ("rules N
 * ms" in the window) when every thread had a core of its own.
 *
 * Timing a call costs two clock reads (measured at the start and taken off each timing), so
 * shares are right but a profiled run is slower. Results never change: only clocks are read.
 */
typedef struct fbProfileCounters {  // one worker thread's sums
  double perception_ns;
  double view_ns[FB_MAX_SPECIES];
  double rule_ns[FB_MAX_SPECIES][FB_MAX_RULES];
  double agent_steps[FB_MAX_SPECIES];
  double busy_ns;                   // CPU time of this thread's whole share of the steps
  double reads;                     // clock reads inside it: their cost is the profile's, not the step's
  char pad[64];                     // threads write their own counters: keep them off each other's cache lines
} fbProfileCounters;

typedef struct fbProfile {
  bool on;
  double clock_ns;                  // the cost of one clock read, taken off each timing
  fbProfileCounters threads[FB_MAX_THREADS];
  long steps;                       // steps summed since the last reset
} fbProfile;

// One line of the table: a rule, a species' view ("(view)"), perception ("(perception)", all
// species) or the rest of the step ("(rest of the step)").
typedef struct fbProfileRow {
  char species[FB_NAME_LEN];        // "" for perception and the serial phases
  char part[FB_NAME_LEN + 2];
  double us_per_agent_step;         // microseconds per agent-step of its species (of all agents for "")
  double share;                     // of the CPU time of all threads, 0..1
  double ms_per_step;               // CPU milliseconds per step, summed over threads
} fbProfileRow;

#define FB_PROFILE_REST "(rest of the step)"
#define FB_PROFILE_MAX_ROWS (FB_MAX_SPECIES * (FB_MAX_RULES + 1) + 2)

double fbProfile_Now(void);                           // this thread's CPU time, nanoseconds
void fbProfile_Start(fbProfile *p);                   // on, sums cleared, the clock's cost measured
void fbProfile_Reset(fbProfile *p);                   // sums cleared, still on

// The table, most costly first (ties in species and rule order); rule_name(ctx, s, k) names rule k
// of species s. Returns the rows written (at most max; 0 before any step was profiled).
typedef const char *(*fbProfileRuleName)(const void *ctx, int s, int k);
int fbProfile_Table(const fbProfile *p, const fbWorld *w, fbProfileRuleName rule_name, const void *ctx,
                    fbProfileRow *rows, int max);

// The CPU milliseconds of a step, summed over threads: the rows' ms_per_step added up.
double fbProfile_StepMs(const fbProfileRow *rows, int n);

// The table as text: a header with the steps and threads, one aligned line per row.
void fbProfile_Print(const fbProfileRow *rows, int n, long steps, int threads, FILE *out);

#endif
