// sweep_plot.h — a sweep's plots, drawn by gnuplot (an optional tool): a measure against a grid parameter, with error bars.
#ifndef FB_SWEEP_PLOT_H
#define FB_SWEEP_PLOT_H

#include "plan.h"

// For each of plot.y, from OUT/summary.csv: writes OUT/<y>.gp, a gnuplot script that holds its own
// data (edit it and run gnuplot again), and runs gnuplot on it to draw OUT/<y>.png: the mean against
// plot.x with standard-error bars, one line per value of the other grid parameters. "outcome:LABEL"
// plots the fraction of complete runs with that outcome, with its binomial standard error. Without
// gnuplot one line says so. Problems are reported on stderr and never fail the sweep; returns the
// number of pictures drawn.
int fbSweepPlot_Draw(const fbPlan *p);

#endif
