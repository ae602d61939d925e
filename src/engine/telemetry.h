// telemetry.h — the numbers a run reports: built-in flock measures, scenario metrics, CSV rows.
#ifndef FB_TELEMETRY_H
#define FB_TELEMETRY_H

#include "sim.h"

// The built-in measures of a group of agents; NaN when the group has no agent (mean_nn: fewer than two).
typedef struct fbMeasures {
  int agents;
  double mean_speed;       // world units per second
  double polarisation;     // |mean of unit headings|: 1 = all aligned, ~0 = disordered
  double mean_nn;          // mean distance to the nearest other agent of the group, world units
  double mean_energy;      // Gompert's energy spent so far (section 5.2.2), energy units
} fbMeasures;

// The measures, in the order of the table in telemetry.c: that table makes the CSV's columns, the
// window's plots and the --csv help. A new measure is a field above, its sum in telemetry.c's
// measure(), and an entry in the table (FB_MEASURES counts them).
#define FB_MEASURES 5

typedef struct fbMeasure {
  const char *column;      // the CSV column of species S is S.<column>
  const char *title;       // the plot's title, with units
  size_t offset;           // of its value in fbMeasures
  bool count;              // an int (the CSV writes it without a point), else a double
  bool unit_range;         // plotted on 0..1 whatever the data (polarisation)
} fbMeasure;

extern const fbMeasure fbMeasureTable[FB_MEASURES];

// Measure k of m as a number.
double fbMeasures_Value(const fbMeasures *m, int k);

typedef struct fbTelemetry {
  FILE *csv;
  double metrics[FB_MAX_METRICS];
  bool flush;              // flush every row (long runs that someone follows with tail -f)
} fbTelemetry;

// The built-in measures of every agent now (sorts the agents for their current positions first).
void fbTelemetry_Measure(fbSim *sim, fbMeasures *m);

// The same for each species, in one pass; the nearest neighbour is then one of the same species.
// The CSV has these columns for each species: predators and prey are never averaged together.
void fbTelemetry_MeasureSpecies(fbSim *sim, fbMeasures per_species[FB_MAX_SPECIES]);

// Opens the CSV and writes the header row: step, time, then for each species S a column
// S.<column> per measure of fbMeasureTable (S.agents, S.mean_speed, ...), then the scenario's
// metrics. err names the path on failure.
bool fbTelemetry_Open(fbTelemetry *t, const char *path, const fbSim *sim, char *err, size_t errlen);

// Writes one row for the sim's current step; false if a scenario metric failed (sim->error).
bool fbTelemetry_Row(fbTelemetry *t, fbSim *sim);

// Closes the CSV; false if writing it failed (disk full, ...).
bool fbTelemetry_Close(fbTelemetry *t);

// Whether a column of that name is one telemetry writes itself (step, time, SPECIES.agents, ...):
// a scenario's metric may not take it.
bool fbTelemetry_IsBuiltinColumn(const char *name);

#endif
