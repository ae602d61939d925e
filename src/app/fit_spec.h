// fit_spec.h — the `fit` table of an experiment file: the parameters and their ranges, the target, the method and its budget.
#ifndef FB_FIT_SPEC_H
#define FB_FIT_SPEC_H

#include "experiment.h"
#include "fit_method.h"
#include "fit_target.h"

typedef enum fbFitMethodKind { FB_FIT_NELDER_MEAD, FB_FIT_CMAES, FB_FIT_ABC_REJECTION, FB_FIT_ABC_SMC } fbFitMethodKind;

typedef struct fbFitParam {
  char name[128];   // a --set name
  double lo, hi;
  bool log;         // searched uniformly in log(value) (the ABC prior is then log-uniform)
} fbFitParam;

typedef struct fbFitSpec {
  fbFitParam params[FB_FIT_MAX_PARAMS];
  int param_count;
  fbFitTarget target;
  fbFitMethodKind method;
  long budget;            // runs at most (candidates x seeds)
  long long seed;         // the method's random numbers
  int particles;          // ABC: the posterior sample's size
  double quantile;        // ABC: the fraction kept (rejection), the tolerance quantile (SMC); < 0: 0.1, 0.5
} fbFitSpec;

// "nelder_mead", "cmaes", "abc_rejection", "abc_smc".
const char *fbFitMethod_Name(fbFitMethodKind m);

// The method of that name; false if there is none.
bool fbFitMethod_Find(const char *name, fbFitMethodKind *out);

// Reads e->source's `fit` table (e already read, its steps known for the default window: the
// second half of the run). One message naming the file and the field on a mistake.
bool fbFitSpec_Read(fbFitSpec *s, const fbExperiment *e, char *err, size_t errlen);

// A parameter's value at u in [0, 1]: linear in the range, or in its logarithm.
double fbFitParam_Value(const fbFitParam *p, double u);

#endif
