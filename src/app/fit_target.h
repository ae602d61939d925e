// fit_target.h — what a fit matches: a number computed from a run's outputs, and the value it should have.
#ifndef FB_FIT_TARGET_H
#define FB_FIT_TARGET_H

#include <stdbool.h>
#include <stddef.h>

typedef struct fbFitTarget fbFitTarget;

// A statistic of one run, from the files the run left (today its telemetry CSV; a statistic of
// its trajectories can be plugged in the same way). False with a message when it cannot be had.
typedef bool (*fbFitStatistic)(const fbFitTarget *t, const char *run_csv, double *out, char *err, size_t errlen);

struct fbFitTarget {
  char column[128];          // a column of the telemetry CSV: "particle.polarisation", "order"
  long from, to;             // the window of steps, inclusive
  double value;              // what the statistic should be
  fbFitStatistic statistic;  // fbFitTarget_WindowMean
};

// The mean of the target's column over the CSV rows whose step lies in [from, to].
bool fbFitTarget_WindowMean(const fbFitTarget *t, const char *run_csv, double *out, char *err, size_t errlen);

#endif
