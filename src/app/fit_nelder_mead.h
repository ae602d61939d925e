// fit_nelder_mead.h — the Nelder–Mead simplex method on the unit box, for a best fit of a noisy objective.
#ifndef FB_FIT_NELDER_MEAD_H
#define FB_FIT_NELDER_MEAD_H

#include "fit_method.h"

// Minimises p->objective from the centre of the box until the budget is spent or the simplex is
// smaller than 1e-6 across. Deterministic: it uses no random numbers.
void fbFitNelderMead_Minimise(const fbFitProblem *p, fbFitResult *out);

#endif
