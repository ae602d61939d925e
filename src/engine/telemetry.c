// telemetry.c — flock measures (speed, polarisation, nearest-neighbour distance, energy) and CSV rows.
#include "telemetry.h"

#include <string.h>

/*
 * The measures of one species (or of every agent, species < 0), from the sim's grid with the
 * agents sorted for their current positions:
 *   mean speed       (1/n) sum |v_i|                                 world units per second
 *   polarisation     |(1/n) sum h_i|, h_i the unit heading           0 .. 1
 *   mean nn distance (1/n) sum min_j |p_i - p_j|, j of the same species (of any, for every agent)
 *   mean energy      (1/n) sum E_i, Gompert's energy (section 5.2.2)  energy units
 * The nearest neighbour is searched outward from the agent's own cell, ring by ring
 * (fbPerception_Nearest with an infinite radius), and the search nearly always stops at the first
 * ring: the measure costs about one perception pass, O(agents), at any size. With no agent the
 * means are NaN, and so is the nearest distance with only one: there is nothing to average.
 */
static void measure(fbSim *sim, int species, fbMeasures *m)
{
  fbSim_UpdateGrid(sim);
  const fbAgents *a = &sim->world.agents;
  uint32_t mask = species < 0 ? UINT32_MAX : 1u << species;
  memset(m, 0, sizeof *m);
  double hx = 0, hy = 0;
  for (int i = 0; i < a->count; ++i) {
    if (species >= 0 && a->species[i] != species) {
      continue;
    }
    m->agents++;
    m->mean_speed += sqrt(a->vx[i] * a->vx[i] + a->vy[i] * a->vy[i]);
    hx += a->hx[i];
    hy += a->hy[i];
    m->mean_energy += a->energy[i];
    double d = NAN;
    fbPerception_Nearest(&sim->perception, fbV(a->px[i], a->py[i]), INFINITY, mask, i, NULL, &d);
    m->mean_nn += isfinite(d) ? d : NAN;  // infinite: nobody else of the group to be near
  }
  double n = m->agents > 0 ? m->agents : NAN;
  m->mean_speed /= n;
  m->polarisation = sqrt(hx * hx + hy * hy) / n;
  m->mean_nn = m->agents > 1 ? m->mean_nn / n : NAN;
  m->mean_energy /= n;
}

void fbTelemetry_Measure(fbSim *sim, fbMeasures *m) { measure(sim, -1, m); }

void fbTelemetry_MeasureSpecies(fbSim *sim, int species, fbMeasures *m) { measure(sim, species, m); }

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
  fprintf(t->csv, "step,time");
  for (int s = 0; s < sim->world.species_count; ++s) {
    const char *name = sim->world.species[s].name;
    fprintf(t->csv, ",%s.agents,%s.mean_speed,%s.polarisation,%s.mean_nn_distance,%s.mean_energy", name, name,
            name, name, name);
  }
  for (int m = 0; m < sim->hooks.metric_count; ++m) {
    fprintf(t->csv, ",%s", sim->hooks.metric_names[m]);
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
  fprintf(t->csv, "%llu,%.6f", (unsigned long long)sim->world.step, (double)sim->world.step * sim->world.dt);
  for (int s = 0; s < sim->world.species_count; ++s) {
    fbMeasures m;
    fbTelemetry_MeasureSpecies(sim, s, &m);
    fprintf(t->csv, ",%d", m.agents);
    write_value(t->csv, m.mean_speed);
    write_value(t->csv, m.polarisation);
    write_value(t->csv, m.mean_nn);
    write_value(t->csv, m.mean_energy);
  }
  for (int k = 0; k < sim->hooks.metric_count; ++k) {
    write_value(t->csv, t->metrics[k]);
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
