// sweep_design.h — an experiment's design = { ... }: Latin hypercube or Morris points instead of a grid, as zipped axes the sweep runs like any other.
#ifndef FB_SWEEP_DESIGN_H
#define FB_SWEEP_DESIGN_H

#include "experiment.h"
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
// Reads t.design, if any, into e->design and makes its axes (one value per point). False with a
// message naming the field.
bool fbSweepDesign_Read(fbTableReader *r, fbExperiment *e, int t);

// A design and a grid (--grid, or grid =) together are refused: points are listed or crossed.
bool fbSweepDesign_Check(const fbExperiment *e, char *err, size_t errlen);

// The design's points in the unit cube again (a pure function of its fields), for the analysis.
void fbSweepDesign_Make(const fbExperiment *e, fbDesign *d);

#endif
