// telemetry.h — the numbers a run reports: built-in flock measures, scenario metrics, CSV rows.
#ifndef FB_TELEMETRY_H
#define FB_TELEMETRY_H

#include "measures.h"
#include "sim.h"

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

// Writes one row for the sim's current step; false if a scenario metric failed (fbSim_Error).
bool fbTelemetry_Row(fbTelemetry *t, fbSim *sim);

// Closes the CSV; false if writing it failed (disk full, ...).
bool fbTelemetry_Close(fbTelemetry *t);

#endif
