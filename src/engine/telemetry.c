// telemetry.c — flock measures (speed, polarisation, nearest-neighbour distance, energy) and CSV rows.
#include "telemetry.h"

#include <string.h>

/*
 * The mean distance to the nearest other agent (any species), from the sim's grid with the agents
 * sorted for their current positions: each agent searches outward from its own cell, ring by ring
 * (fbPerception_Nearest with an infinite radius), and nearly always stops at the first ring. So
 * the measure costs about what one perception pass costs, O(agents), at any size.
 */
void fbTelemetry_Measure(fbSim *sim, fbMeasures *m)
{
  fbSim_UpdateGrid(sim);
  const fbAgents *a = &sim->world.agents;
  memset(m, 0, sizeof *m);
  m->agents = a->count;
  if (a->count == 0) {
    return;
  }
  double hx = 0, hy = 0;
  for (int i = 0; i < a->count; ++i) {
    m->mean_speed += sqrt(a->vx[i] * a->vx[i] + a->vy[i] * a->vy[i]);
    hx += a->hx[i];
    hy += a->hy[i];
    m->mean_energy += a->energy[i];
    double d = 0.0;
    if (a->count > 1) {
      fbPerception_Nearest(&sim->perception, fbV(a->px[i], a->py[i]), INFINITY, UINT32_MAX, i, NULL, &d);
    }
    m->mean_nn += d;
  }
  m->mean_speed /= a->count;
  m->polarisation = sqrt(hx * hx + hy * hy) / a->count;
  m->mean_nn /= a->count;
  m->mean_energy /= a->count;
}

bool fbTelemetry_Open(fbTelemetry *t, const char *path, const fbSim *sim, char *err, size_t errlen)
{
  memset(t, 0, sizeof *t);
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
  fbSim_UpdateGrid(sim);  // metrics that walk fb.agent(k) see the agents in the same order on every run
  if (!fbSim_Metrics(sim, t->metrics)) {
    return false;
  }
  if (t->csv == NULL) {
    return true;
  }
  fbMeasures m;
  fbTelemetry_Measure(sim, &m);
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
  return ok;
}
