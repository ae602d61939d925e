// fit_method.h — what the fitting methods share: the unit box they search, a batch objective, seeded random numbers.
#ifndef FB_FIT_METHOD_H
#define FB_FIT_METHOD_H

#include <stdbool.h>
#include <stdint.h>

#define FB_FIT_MAX_PARAMS 8

/*
 * Every method searches the unit box [0, 1]^dim; the caller maps it onto the parameters' ranges
 * (linearly, or linearly in the logarithm). The objective is asked for a batch of points at once
 * (x: n rows of dim numbers) so that a generation of CMA-ES or ABC can run as one batch of runs;
 * Nelder–Mead asks for one point at a time after its first simplex. It returns false to stop the
 * method (a run failed or the user interrupted): the method then returns what it has.
 */
typedef bool (*fbFitObjective)(void *ctx, const double *x, int n, int dim, double *f);

typedef struct fbFitProblem {
  int dim;
  fbFitObjective objective;
  void *ctx;
  long budget;      // evaluations at most
  uint64_t seed;    // the method's own random numbers (not the runs' seeds)
} fbFitProblem;

typedef struct fbFitResult {
  double best[FB_FIT_MAX_PARAMS];   // in the unit box
  double best_f;
  long evaluations;
  bool stopped;                     // the objective asked to stop
} fbFitResult;

// Folds any number into [0, 1] by reflection at the walls (a triangle wave), so that a step out
// of the box lands as far inside it: 1.2 -> 0.8, -0.3 -> 0.3, 2.5 -> 0.5.
double fbFit_Reflect(double u);

// Counter-based random numbers for a method: the same seed gives the same sequence, so a fit
// killed and run again asks for the same candidates and finds their runs made.
typedef struct fbFitRandom {
  uint64_t seed, count;
} fbFitRandom;

double fbFitRandom_Uniform(fbFitRandom *r);
double fbFitRandom_Normal(fbFitRandom *r);

#endif
