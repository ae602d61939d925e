// scenario_measure.h — one scenario at N agents on one thread: CPU ns per agent-step, the median of repeated timings of the same steps, and what the run saw.
#ifndef FB_SCENARIO_MEASURE_H
#define FB_SCENARIO_MEASURE_H

#include "scenario_scale.h"

#define FB_MEASURE_MAX_REPEATS 64

typedef struct fbMeasureSetup {
  int warmup;            // steps before the timing (buffers grown, Lua states warm)
  int steps;             // steps timed, from step `warmup` on
  int repeats;           // times the same steps are timed, each from a fresh load; the median is reported
  fbScaleSpawn spawn;
} fbMeasureSetup;

typedef struct fbMeasure {
  int loaded;            // agents the scaled scenario started with
  int agents;            // at the start of the timed steps (catches and births change it)
  double neighbours;     // flock-mates each agent sees, mean, after the timed steps
  double ns;             // CPU ns per agent-step, median of the repeats
  double step_ns;        // CPU ns per step, median of the repeats
  bool finite;           // every position and velocity a number after the timed steps
  long agent_steps;      // every timed step's agents, summed: what callgrind's count is divided by
  char overrides[2048];  // the --set overrides that scaled it, as flockbox's command line takes them
  char outcome[64];      // the label a hook gave with fb.stop and when ("" if none); the steps go on
  char problem[1024];    // why the numbers cannot be trusted ("" when the run was clean)
} fbMeasure;

/*
 * What is timed is fbSim_Step alone, as a headless run does it on one thread (threads = 1: the step
 * runs on the calling thread, so that thread's CPU clock sees all of it): grid, perception, rules,
 * integration, bodies and the scenario's on_step hook. Nothing is written and the scenario's
 * metrics (CSV columns) are not evaluated. Every timed step runs inside time_steps_measured, for
 * valgrind --tool=callgrind --toggle-collect='time_steps*'.
 *
 * False when the scenario did not load or scale, a step failed, or a rule or hook was switched
 * off (the run then did less than the scenario asks): m->problem says which.
 */
bool fbMeasure_Run(const char *path, int agents, const fbMeasureSetup *setup, fbMeasure *m);

#endif
