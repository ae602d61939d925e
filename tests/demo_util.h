// demo_util.h — helpers for the tests of the shipped demos (include after <cmocka.h>): load a
// scenario, read a metric column, measure what the CSV would.
#ifndef FB_DEMO_UTIL_H
#define FB_DEMO_UTIL_H

#include <stdbool.h>
#include <string.h>

#include "sim_internal.h"  // white-box: reads and sets the sim's members

static fbSim sim;
static bool sim_loaded;  // a failed assertion leaves the sim running: demo_teardown frees it
static uint64_t demo_seed;  // the seed of the next loads; 0: the run options' default

// Loads a scenario with `count` --set values, as `flockbox --set` would, on `threads` workers
// (0: one per core).
static inline void load_threads(const char *path, const char *const *sets, int count, int threads)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.headless = true;
  o.threads = threads;
  if (demo_seed != 0) {
    o.seed = demo_seed;
  }
  for (int k = 0; k < count; ++k) {
    o.sets[o.set_count++] = sets[k];
  }
  char err[2048];
  if (!fbSim_Load(&sim, path, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  sim_loaded = true;
}

static inline void load_sets(const char *path, const char *const *sets, int count)
{
  load_threads(path, sets, count, 0);
}

static inline void load_with(const char *path, const char *set) { load_sets(path, &set, set != NULL); }

static inline void load(const char *path) { load_sets(path, NULL, 0); }

static inline void unload(void)
{
  if (sim_loaded) {
    fbSim_Free(&sim);
    sim_loaded = false;
  }
}

// After every test, passed or failed: a sim left loaded keeps worker threads on the memory the
// next test's load overwrites.
static inline int demo_teardown(void **state)
{
  (void)state;
  unload();
  return 0;
}

static inline void step(void)
{
  if (!fbSim_Step(&sim)) {
    fail_msg("%s: %s", sim.path, sim.error);
  }
}

// The scenario's metric column `name`, now.
static inline double metric(const char *name)
{
  double values[FB_MAX_METRICS];
  if (!fbSim_Metrics(&sim, values)) {
    fail_msg("%s", sim.error);
  }
  for (int m = 0; m < sim.hooks.metric_count; ++m) {
    if (strcmp(sim.hooks.metric_names[m], name) == 0) {
      return values[m];
    }
  }
  fail_msg("%s has no metric '%s'", sim.path, name);
  return NAN;
}

// A per-agent field of agent i.
static inline double field(int i, const char *name)
{
  int f = fbWorld_FindField(&sim.world, name);
  if (f < 0) {
    fail_msg("no field '%s'", name);
  }
  return sim.world.agents.field[f][i];
}

static inline int species(const char *name)
{
  int s = fbWorld_FindSpecies(&sim.world, name);
  if (s < 0) {
    fail_msg("no species '%s'", name);
  }
  return s;
}

// |mean unit heading| over the agents: 1 = all aligned, near 0 = every which way (the CSV's).
static inline double polarisation(void)
{
  const fbAgents *a = &sim.world.agents;
  double hx = 0, hy = 0;
  for (int i = 0; i < a->count; ++i) {
    hx += a->hx[i];
    hy += a->hy[i];
  }
  return a->count > 0 ? sqrt(hx * hx + hy * hy) / a->count : 0;
}

#endif
