// sweep_design.h — an experiment's design = { ... }: Latin hypercube or Morris points over parameter ranges, which the experiment lists as zipped axes.
#ifndef FB_SWEEP_DESIGN_H
#define FB_SWEEP_DESIGN_H

#include "lua_table.h"
#include "sensitivity.h"

/*
 * design = {
 *   method = "morris",          -- or "latin" (Latin hypercube)
 *   parameters = { { "boid.max_speed", 2, 10 }, { "boid.vision.radius", 5, 50, log = true }, ... },
 *   trajectories = 10,          -- morris: points = trajectories * (parameters + 1); levels = 4
 *   samples = 50,               -- latin: points
 *   seed = 1,                   -- the design's own seed, not the runs'
 * }
 */
#define FB_DESIGN_MAX_PARAMETERS 8

typedef struct fbExperimentDesign {
  int method;          // 0: none (a grid), else an fbDesignKind + 1
  long count;          // Latin hypercube: samples; Morris: trajectories
  int levels;          // Morris
  long long seed;
  int parameters;
  char name[FB_DESIGN_MAX_PARAMETERS][128];
  double lo[FB_DESIGN_MAX_PARAMETERS], hi[FB_DESIGN_MAX_PARAMETERS];
  bool log[FB_DESIGN_MAX_PARAMETERS];  // sampled evenly in log(value)
} fbExperimentDesign;

// Reads t.design, if any, into d (method 0 when absent). False with a message naming the field.
bool fbSweepDesign_Read(fbTableReader *r, int t, fbExperimentDesign *d);

// The design's points in the unit cube (a pure function of its fields); point p's parameter a is
// fbSweepDesign_Value(d, a, design.u[p * d->parameters + a]).
void fbSweepDesign_Make(const fbExperimentDesign *d, fbDesign *design);
double fbSweepDesign_Value(const fbExperimentDesign *d, int a, double u);

#endif
