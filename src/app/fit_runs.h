// fit_runs.h — a fit's candidates as sweeps: each candidate's runs (one per seed) made, recorded and measured by the sweep machinery.
#ifndef FB_FIT_RUNS_H
#define FB_FIT_RUNS_H

#include "fit_spec.h"

// One evaluated candidate: the parameters as run, the statistic averaged over seeds, the objective.
typedef struct fbFitEval {
  double value[FB_FIT_MAX_PARAMS];
  double statistic, objective;
} fbFitEval;

typedef struct fbFitRuns {
  const fbExperiment *e;
  const fbFitSpec *s;
  const char *self;       // the flockbox binary
  int jobs;
  bool quiet;
  bool list_only;         // --list: print the pending runs' commands instead of making them
  long listed;            // runs listed so far
  fbFitEval *evals;       // in the order evaluated: candidate k is evals[k - 1]
  long count, cap;
  int status;             // 0, or why the fit stopped: 1 unwritable, 2 bad input, 3 a run failed, 4 runs listed
                          // (--list), 130 interrupted
  char err[2048];
} fbFitRuns;

/*
 * The fit's objective (fit_method.h): candidate k (counting from 1 over the whole fit) is a sweep
 * of the experiment with each fitted parameter set to one value, into OUT/evals/<k>: its plan
 * file, a run per seed with the runs' own metadata (provenance), and status files. The seeds are
 * the experiment's for every candidate (common random numbers). The objective is
 *   f = (1/S) sum_s (statistic_s - target)^2
 * over the S seeds. The methods are deterministic for a given seed, so a fit killed and run again
 * asks for the same candidates in the same order and finds the runs already made: only the
 * missing ones are run (a candidate's plan file refuses a folder holding another candidate).
 */
bool fbFitRuns_Objective(void *ctx, const double *x, int n, int dim, double *f);

void fbFitRuns_Free(fbFitRuns *r);

#endif
