// sweep_check.h — before a sweep makes its runs: does the scenario accept every value the runs will set?
#ifndef FB_SWEEP_CHECK_H
#define FB_SWEEP_CHECK_H

#include "plan.h"

// Loads the scenario (no step, no output) with each value of each grid parameter and with the last
// seed. Returns 0, or the failing load's exit status with one message in err naming the entry of
// the experiment at fault: "experiments/x.lua: grid[1][2][3]: the scenario refuses boid.vision.fov=400:
// ...". Writes nothing in the output folder.
int fbSweepCheck_Runs(const fbPlan *p, char *err, size_t errlen);

#endif
