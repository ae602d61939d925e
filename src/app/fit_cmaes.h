// fit_cmaes.h — CMA-ES, the covariance matrix adaptation evolution strategy, on the unit box: a generation is one batch.
#ifndef FB_FIT_CMAES_H
#define FB_FIT_CMAES_H

#include "fit_method.h"

// Minimises p->objective from the centre of the box with step size 0.3, lambda = 4 + floor(3 ln n)
// candidates per generation (evaluated as one batch), until the budget is spent or the step size
// falls below 1e-6. Seeded by p->seed.
void fbFitCmaes_Minimise(const fbFitProblem *p, fbFitResult *out);

// The number of candidates per generation for dim parameters.
int fbFitCmaes_Lambda(int dim);

#endif
