// sweep_collect.h — a sweep's results: results.csv, a row per run, and summary.csv, a row per grid point.
#ifndef FB_SWEEP_COLLECT_H
#define FB_SWEEP_COLLECT_H

#include "plan.h"

typedef struct fbSweepCounts {
  long complete, incomplete, failed, pending;
  long first_incomplete, first_failed;  // run numbers, 0 for none
  int first_failed_exit;
  long other_inputs;      // finished runs made from other files or another build than the first
  long reference, first_other;  // that first run, and the first that differs from it
} fbSweepCounts;

// Reads every run of the plan (run_record.h) and writes OUT/results.csv and OUT/summary.csv, each
// through a temporary file and a rename. The bytes depend only on the runs' outputs, never on the
// order they were made in or how many at once. False (message in err) if a file cannot be written.
bool fbSweepCollect_Write(const fbPlan *p, fbSweepCounts *counts, char *err, size_t errlen);

#endif
