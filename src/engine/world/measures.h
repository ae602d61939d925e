// measures.h — the built-in flock measures (agents, speed, polarisation, nearest neighbour, energy, rotation): one table the CSV, the plots and the help read.
#ifndef FB_MEASURES_H
#define FB_MEASURES_H

#include "perception.h"
#include "world.h"

// The built-in measures of a group of agents; NaN when the group has no agent (mean_nn: fewer than two).
typedef struct fbMeasures {
  int agents;
  double mean_speed;       // world units per second
  double polarisation;     // |mean of unit headings|: 1 = all aligned, ~0 = disordered
  double mean_nn;          // mean distance to the nearest other agent of the group, world units
  double mean_energy;      // Gompert's energy spent so far (section 5.2.2), energy units
  double rotation;         // |mean of (unit offset from the centre) x (unit heading)|: 1 = a mill
} fbMeasures;

// The measures, in the order of the table in measures.c: that table makes the CSV's columns, the
// window's plots and the --csv help. A new measure is a field above, its sum in measures.c's
// fbMeasures_Compute, and an entry in the table (FB_MEASURES counts them).
#define FB_MEASURES 6

typedef struct fbMeasure {
  const char *column;      // the CSV column of species S is S.<column>
  const char *title;       // the plot's title, with units
  size_t offset;           // of its value in fbMeasures
  bool count;              // an int (the CSV writes it without a point), else a double
  bool unit_range;         // plotted on 0..1 whatever the data (polarisation)
} fbMeasure;

extern const fbMeasure fbMeasureTable[];  // FB_MEASURES entries: measures.c asserts it

// Measure k of m as a number.
double fbMeasures_Value(const fbMeasures *m, int k);

// The measures of every agent (groups = 1, by_species false) or of each species (groups =
// species count), from agents stored in the grid order `in` was set up for (fbSim_UpdateGrid).
// The centre of n positions along one axis of length size: their mean (sum / n), or where the world
// wraps the circular mean of the angles 2 pi x / size (whose sines and cosines sum to sum_sin, sum_cos),
// in [0, size). 0 when n is 0. The measures' centres and the window's "follow the flock" both use it.
double fbMeasures_AxisCentre(bool wrap, double sum, double sum_sin, double sum_cos, int n, double size);

void fbMeasures_Compute(const fbAgents *a, const fbPerceptionInput *in, bool by_species, fbMeasures *m, int groups);

// Whether a column of that name is one telemetry writes itself (step, time, SPECIES.agents, ...):
// a scenario's metric may not take it.
bool fbMeasures_IsBuiltinColumn(const char *name);

#endif
