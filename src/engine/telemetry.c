// telemetry.c — flock measures (speed, polarisation, nearest-neighbour distance, energy) and CSV rows.
#include "telemetry.h"

#include <string.h>

// Distance to the nearest other agent: the grid's cell first (where nearly every agent finds one),
// then the whole world for the isolated few.
static double nearest_distance(const fbPerceptionInput *in, const fbWorld *w, int i, double cell)
{
  double d;
  fbVec2 p = fbV(w->agents.px[i], w->agents.py[i]);
  if (fbGrid_Nearest(in, p, cell, UINT32_MAX, i, &d) >= 0) {
    return d;
  }
  double far = sqrt(w->width * w->width + w->height * w->height);
  return fbGrid_Nearest(in, p, far, UINT32_MAX, i, &d) >= 0 ? d : 0.0;
}

void fbTelemetry_Measure(fbTelemetry *t, const fbSim *sim, fbMeasures *m)
{
  const fbWorld *w = &sim->world;
  const fbAgents *a = &w->agents;
  memset(m, 0, sizeof *m);
  m->agents = a->count;
  if (a->count == 0) {
    return;
  }
  double cell = fmax(1e-3, fmin(w->width, w->height) / 64);
  fbGrid_Build(&t->grid, a->px, a->py, a->count, w->width, w->height, cell, w->bounds == FB_BOUNDS_WRAP);
  fbPerceptionInput in = {a->px, a->py, a->vx, a->vy, a->hx, a->hy, a->species, a->active, a->count, NULL, &t->grid};
  double hx = 0, hy = 0;
  for (int i = 0; i < a->count; ++i) {
    m->mean_speed += sqrt(a->vx[i] * a->vx[i] + a->vy[i] * a->vy[i]);
    hx += a->hx[i];
    hy += a->hy[i];
    m->mean_energy += a->energy[i];
    if (a->count > 1) {
      m->mean_nn += nearest_distance(&in, w, i, t->grid.cell);
    }
  }
  m->mean_speed /= a->count;
  m->polarisation = sqrt(hx * hx + hy * hy) / a->count;
  m->mean_nn /= a->count;
  m->mean_energy /= a->count;
}

bool fbTelemetry_Open(fbTelemetry *t, const char *path, const fbSim *sim, char *err, size_t errlen)
{
  memset(t, 0, sizeof *t);
  fbGrid_Init(&t->grid);
  if (path == NULL) {
    return true;
  }
  t->csv = fopen(path, "w");
  if (t->csv == NULL) {
    snprintf(err, errlen, "%s: cannot write the CSV file", path);
    return false;
  }
  fprintf(t->csv, "step,time,agents,mean_speed,polarisation,mean_nn_distance,mean_energy");
  for (int m = 0; m < sim->hooks.metric_count; ++m) {
    fprintf(t->csv, ",%s", sim->hooks.metric_names[m]);
  }
  fputc('\n', t->csv);
  return true;
}

bool fbTelemetry_Row(fbTelemetry *t, fbSim *sim)
{
  if (!fbSim_Metrics(sim, t->metrics)) {
    return false;
  }
  if (t->csv == NULL) {
    return true;
  }
  fbMeasures m;
  fbTelemetry_Measure(t, sim, &m);
  fprintf(t->csv, "%llu,%.6f,%d,%.9g,%.9g,%.9g,%.9g", (unsigned long long)sim->world.step,
          (double)sim->world.step * sim->world.dt, m.agents, m.mean_speed, m.polarisation, m.mean_nn, m.mean_energy);
  for (int k = 0; k < sim->hooks.metric_count; ++k) {
    fprintf(t->csv, ",%.9g", t->metrics[k]);
  }
  fputc('\n', t->csv);
  if (sim->options.headless == false || t->flush) {
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
  fbGrid_Free(&t->grid);
  return ok;
}
