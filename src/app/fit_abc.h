// fit_abc.h — approximate Bayesian computation on the unit box: rejection, and sequential Monte Carlo with decreasing tolerances.
#ifndef FB_FIT_ABC_H
#define FB_FIT_ABC_H

#include "fit_method.h"

// A weighted sample of the posterior, in the unit box (the prior is uniform there).
typedef struct fbFitPosterior {
  int dim, count;
  double *x;          // count rows of dim
  double *weight;     // summing to 1
  double *distance;   // sqrt of each particle's objective
  double tolerance;   // the last generation's
  int generations;
} fbFitPosterior;

void fbFitPosterior_Free(fbFitPosterior *post);

// The weighted q-quantile (0..1) of parameter k.
double fbFitPosterior_Quantile(const fbFitPosterior *post, int k, double q);
double fbFitPosterior_Mean(const fbFitPosterior *post, int k);

typedef struct fbFitAbcOptions {
  int particles;       // the posterior sample's size
  double quantile;     // rejection: the fraction kept; SMC: each tolerance is this quantile of the last distances
} fbFitAbcOptions;

// Rejection: the whole budget drawn from the prior as one batch; the `quantile` fraction nearest
// the target is the posterior (equal weights), at least `particles` of them if the budget allows.
void fbFitAbc_Rejection(const fbFitProblem *p, const fbFitAbcOptions *o, fbFitResult *best, fbFitPosterior *post);

// ABC-SMC: generations of `particles` weighted particles under decreasing tolerances, each
// generation proposed in batches of `particles`, until the budget is spent.
void fbFitAbc_Smc(const fbFitProblem *p, const fbFitAbcOptions *o, fbFitResult *best, fbFitPosterior *post);

#endif
