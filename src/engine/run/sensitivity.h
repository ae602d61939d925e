// sensitivity.h — designs for runs beyond grids (Latin hypercube, Morris trajectories) and what they tell: which parameters matter for a statistic.
#ifndef FB_SENSITIVITY_H
#define FB_SENSITIVITY_H

#include <stdbool.h>
#include <stdint.h>

typedef enum fbDesignKind {
  FB_DESIGN_LATIN_HYPERCUBE,  // McKay, Beckman & Conover 1979; read by rank correlations
  FB_DESIGN_MORRIS,           // Morris 1991 elementary effects, mu* of Campolongo et al. 2007
} fbDesignKind;

// Points in the unit cube [0, 1]^factors, point p's factor j at u[p * factors + j]; a program maps
// them to each parameter's range.
typedef struct fbDesign {
  fbDesignKind kind;
  int factors;
  long points;
  double *u;
  int levels;        // Morris: the grid of levels 0, 1/(levels-1), ..., 1
  int trajectories;  // Morris: points = trajectories * (factors + 1)
  double delta;      // Morris: the step, levels / (2 (levels - 1))
} fbDesign;

// samples points, one in each of the samples slices of every axis, paired at random (seeded).
void fbDesign_LatinHypercube(fbDesign *d, int factors, long samples, uint64_t seed);

// trajectories walks of factors + 1 points, each changing one factor by +-delta at a time, in a
// random order from a random start on the grid of levels (levels even, at least 2; seeded).
void fbDesign_Morris(fbDesign *d, int factors, int trajectories, int levels, uint64_t seed);

void fbDesign_Free(fbDesign *d);

// What a design says of factor j for one output y (y[p] at point p; NaN where a run failed).
typedef struct fbSensitivity {
  double mu;       // Morris: mean elementary effect (its sign: the direction)
  double mu_star;  // Morris: mean |elementary effect|: how much the factor matters
  double sigma;    // Morris: their standard deviation: nonlinearity or interactions
  double rho;      // Latin hypercube: Spearman's rank correlation of the factor with y
  int used;        // effects (Morris) or points (Latin hypercube) without a NaN
} fbSensitivity;

// out has d->factors entries. Effects are per unit of the factor's [0, 1] range.
void fbDesign_Analyse(const fbDesign *d, const double *y, fbSensitivity *out);

#endif
