// fit_output.h — what a fit leaves in its folder: best.csv, trace.csv, posterior.csv and intervals.csv (ABC), and the plots.
#ifndef FB_FIT_OUTPUT_H
#define FB_FIT_OUTPUT_H

#include "fit_abc.h"
#include "fit_runs.h"

// The evaluations (trace.csv: candidate, each parameter, statistic, objective) and the best one
// (best.csv: name, value; a last row "objective"). False with a message if a file cannot be written.
bool fbFitOutput_Trace(const fbFitRuns *r, long best, char *err, size_t errlen);

// The posterior sample (posterior.csv: each parameter, weight, distance, in parameter units) and
// each parameter's mean and 90 % credible interval (intervals.csv: name, mean, q05, q50, q95).
bool fbFitOutput_Posterior(const fbFitRuns *r, const fbFitPosterior *post, char *err, size_t errlen);

// convergence.gp/.png (objective per candidate and the best so far) and, with a posterior,
// posterior.gp/.png (a weighted histogram per parameter). Returns the pictures drawn; without
// gnuplot the scripts are written and one line says so.
int fbFitOutput_Plots(const fbFitRuns *r, bool posterior);

#endif
