// sweep_pool.h — making a sweep's runs as child processes, a few at a time, with Ctrl-C passed on to them.
#ifndef FB_SWEEP_POOL_H
#define FB_SWEEP_POOL_H

#include "plan.h"

// Call first thing, before any thread exists (the Lua host starts a watchdog thread): blocks the
// signals the pool waits for in every thread, so that they reach the pool's wait and no other.
void fbSweepPool_BlockSignals(void);

// While the experiment is read (Lua code that may be stuck), Ctrl-C, SIGTERM and SIGHUP are
// caught instead of blocked, and ask any stuck script to stop (on = true); then blocked again for
// the pool (on = false). Returns whether one of them arrived.
bool fbSweepPool_CatchStops(bool on);

typedef struct fbPoolOptions {
  int jobs;          // runs at once
  long done_before;  // runs of the plan already made, for the progress line
  bool quiet;        // no progress line
  bool retry_failed; // a failed run is made again (else a run found made when claimed is left as it is)
} fbPoolOptions;

// Makes the `count` runs listed, at most o->jobs at once, each in its own process (plan.h's command
// line, output to OUT/runs/<run>.log) and recorded as it ends (run_record.h). Progress goes to
// stderr: a line rewritten in place on a terminal, a line per tenth of the plan otherwise.
// SIGINT, SIGTERM and SIGHUP stop the launching and are passed on to the running runs, which end
// after their current step; the pool returns when all have exited, with *interrupted set. Returns
// false (message in err) if a run could not be started or its status not written.
bool fbSweepPool_Run(const fbPlan *p, const long *runs, long count, const fbPoolOptions *o, bool *interrupted,
                     char *err, size_t errlen);

#endif
