// telemetry.c — a run's CSV: the built-in measures (measures.h) of each species, then the scenario's metrics, row by row.
#include "telemetry.h"

#include <string.h>

#include "paths.h"

void fbTelemetry_Measure(fbSim *sim, fbMeasures *m)
{
  fbSim_UpdateGrid(sim);
  fbMeasures_Compute(&fbSim_World(sim)->agents, fbSim_Perception(sim), false, m, 1);
}

void fbTelemetry_MeasureSpecies(fbSim *sim, fbMeasures per_species[FB_MAX_SPECIES])
{
  fbSim_UpdateGrid(sim);
  const fbWorld *w = fbSim_World(sim);
  fbMeasures_Compute(&w->agents, fbSim_Perception(sim), true, per_species, w->species_count);
}

bool fbTelemetry_Open(fbTelemetry *t, const char *path, const fbSim *sim, char *err, size_t errlen)
{
  memset(t, 0, sizeof *t);
  if (path == NULL) {
    return true;
  }
  char why[256];
  t->csv = fbFilePath_OpenOutput(path, "w", why, sizeof why);
  if (t->csv == NULL) {
    snprintf(err, errlen, "%s: cannot write the CSV file: %s", path, why);
    return false;
  }
  const fbWorld *w = fbSim_World(sim);
  fprintf(t->csv, "step,time");
  for (int s = 0; s < w->species_count; ++s) {
    for (int k = 0; k < FB_MEASURES; ++k) {
      fprintf(t->csv, ",%s.%s", w->species[s].name, fbMeasureTable[k].column);
    }
  }
  for (int m = 0; m < fbSim_MetricCount(sim); ++m) {
    fprintf(t->csv, ",%s", fbSim_MetricName(sim, m));
  }
  fputc('\n', t->csv);
  return true;
}

// One CSV field. An undefined value is written NaN, the spelling R, pandas and gnuplot all read
// as a missing number (printf's "nan" would make R read the whole column as text).
static void write_value(FILE *csv, double v)
{
  if (isnan(v)) {
    fputs(",NaN", csv);
  } else {
    fprintf(csv, ",%.9g", v);
  }
}

bool fbTelemetry_Row(fbTelemetry *t, fbSim *sim)
{
  fbSim_UpdateGrid(sim);  // metrics that walk fb.agent(k) see the agents in the same order on every run
  if (!fbSim_Metrics(sim, t->metrics)) {
    return false;
  }
  if (t->csv == NULL) {
    return true;
  }
  const fbWorld *w = fbSim_World(sim);
  fprintf(t->csv, "%llu,%.6f", (unsigned long long)w->step, (double)w->step * w->dt);
  fbMeasures per_species[FB_MAX_SPECIES];
  fbTelemetry_MeasureSpecies(sim, per_species);
  for (int s = 0; s < w->species_count; ++s) {
    for (int k = 0; k < FB_MEASURES; ++k) {
      double v = fbMeasures_Value(&per_species[s], k);
      if (fbMeasureTable[k].count) {
        fprintf(t->csv, ",%.0f", v);
      } else {
        write_value(t->csv, v);
      }
    }
  }
  for (int k = 0; k < fbSim_MetricCount(sim); ++k) {
    write_value(t->csv, t->metrics[k]);
  }
  fputc('\n', t->csv);
  if (!fbSim_Options(sim)->headless || t->flush) {
    fflush(t->csv);  // rows visible at once: a window or a --watch run is watched while it runs
  }
  return true;
}

bool fbTelemetry_Close(fbTelemetry *t)
{
  bool ok = true;
  if (t->csv != NULL) {
    ok = !ferror(t->csv);
    ok = (fclose(t->csv) == 0) && ok;
  }
  t->csv = NULL;
  return ok;
}
