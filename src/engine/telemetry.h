// telemetry.h — the numbers a run reports: built-in flock measures, scenario metrics, CSV rows.
#ifndef FB_TELEMETRY_H
#define FB_TELEMETRY_H

#include "sim.h"

typedef struct fbMeasures {
  int agents;
  double mean_speed;
  double polarisation;     // |mean of unit headings|: 1 = all aligned, ~0 = disordered
  double mean_nn;          // mean distance to the nearest other agent (any species)
  double mean_energy;
} fbMeasures;

typedef struct fbTelemetry {
  FILE *csv;
  double metrics[FB_MAX_METRICS];
  bool flush;              // flush every row (long runs that someone follows with tail -f)
} fbTelemetry;

// The built-in measures now (sorts the agents for their current positions first).
void fbTelemetry_Measure(fbSim *sim, fbMeasures *m);

// Opens the CSV and writes the header row. err names the path on failure.
bool fbTelemetry_Open(fbTelemetry *t, const char *path, const fbSim *sim, char *err, size_t errlen);

// Writes one row for the sim's current step; false if a scenario metric failed (sim->error).
bool fbTelemetry_Row(fbTelemetry *t, fbSim *sim);

// Closes the CSV; false if writing it failed (disk full, ...).
bool fbTelemetry_Close(fbTelemetry *t);

#endif
