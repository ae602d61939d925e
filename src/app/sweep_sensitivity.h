// sweep_sensitivity.h — flockbox sensitivity EXPERIMENT: a sweep over the experiment's design, then which parameters matter for each measure.
#ifndef FB_SWEEP_SENSITIVITY_H
#define FB_SWEEP_SENSITIVITY_H

// flockbox sensitivity FILE [sweep options]: argv[0] is "sensitivity". Makes the sweep (as flockbox
// sweep FILE, resumable), then from OUT/summary.csv writes OUT/sensitivity.csv and prints, for each
// measure, each parameter's mu*, mu and sigma (Morris) or Spearman's rho (Latin hypercube).
// Returns the sweep's status, or 2 if FILE has no design.
int fbSweepSensitivity_Main(int argc, char **argv);

#endif
