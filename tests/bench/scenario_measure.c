// scenario_measure.c — one scenario at N agents on one thread: the same steps timed again and again on the thread's CPU clock, then what the run saw.
#define _POSIX_C_SOURCE 200809L
#include "scenario_measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim.h"  // fbSim_UpdateGrid, fbSim_Seen, fbSim_Lost, fbSim_Outcome: reading a run, never its members

typedef struct Burst {
  double cpu_ns;
  long agent_steps;
  bool ok;
} Burst;

static double thread_cpu_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

// Not inlined, and named so that callgrind counts exactly these steps: --toggle-collect='time_steps*'.
static __attribute__((noinline)) Burst time_steps_measured(fbSim *sim, int steps)
{
  Burst b = {0, 0, true};
  double t0 = thread_cpu_ns();
  for (int k = 0; k < steps && b.ok; ++k) {
    b.agent_steps += fbSim_AgentCount(sim);
    b.ok = fbSim_Step(sim);
  }
  b.cpu_ns = thread_cpu_ns() - t0;
  return b;
}

// Steps before the timing: buffers grown, caches and the Lua states warm. Outside the count.
static bool warm_up(fbSim *sim, int steps)
{
  for (int k = 0; k < steps; ++k) {
    if (!fbSim_Step(sim)) {
      return false;
    }
  }
  return true;
}

static int compare_doubles(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, compare_doubles);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Every position and velocity a number: a step that produced NaN or infinity says so here.
static bool all_finite(const fbSim *sim)
{
  int n = fbSim_AgentCount(sim);
  fbAgentState *all = malloc(sizeof *all * (size_t)(n > 0 ? n : 1));
  n = fbSim_GetAgents(sim, all, n);
  bool finite = true;
  for (int i = 0; i < n; ++i) {
    finite = finite && isfinite(all[i].position.x) && isfinite(all[i].position.y) &&
             isfinite(all[i].velocity.x) && isfinite(all[i].velocity.y);
  }
  free(all);
  return finite;
}

// Mean flock-mates seen, as perception counts them for the agents where they are now.
static double mean_neighbours(fbSim *sim)
{
  fbSim_UpdateGrid(sim);
  int n = fbSim_AgentCount(sim);
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    sum += fbSim_Seen(sim, i);
  }
  return n > 0 ? sum / n : 0;
}

static fbSim *load_scaled(const char *path, const fbScalePlan *plan, char *err, size_t errlen)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.threads = 1;
  o.headless = true;
  o.lua_timeout_ms = 600000;  // valgrind runs the rules 50 times slower: no watchdog stop in the count
  fbScale_Apply(plan, &o);
  return fbSim_NewFromFile(path, &o, err, errlen);
}

// What a reader of the numbers must know: a rule or hook switched off, a hook's fb.stop.
static void note_run(fbSim *sim, fbMeasure *m)
{
  char lost[512];
  if (m->problem[0] == '\0' && fbSim_Lost(sim, lost, sizeof lost) > 0) {
    snprintf(m->problem, sizeof m->problem, "%s", lost);
  }
  double when = 0;
  const char *outcome = fbSim_Outcome(sim, &when);
  if (outcome != NULL) {
    snprintf(m->outcome, sizeof m->outcome, "%s at %.3g s", outcome, when);
  }
}

// One repeat: the scenario loaded afresh, warmed up, then the same steps timed as every repeat times.
static bool time_once(const char *path, const fbScalePlan *plan, const fbMeasureSetup *setup, fbMeasure *m, Burst *b)
{
  fbSim *sim = load_scaled(path, plan, m->problem, sizeof m->problem);
  if (sim == NULL) {
    return false;
  }
  m->loaded = fbSim_AgentCount(sim);
  if (!warm_up(sim, setup->warmup)) {
    snprintf(m->problem, sizeof m->problem, "a warm-up step failed: %s", fbSim_Error(sim));
  } else {
    m->agents = fbSim_AgentCount(sim);
    *b = time_steps_measured(sim, setup->steps);
    if (!b->ok) {
      snprintf(m->problem, sizeof m->problem, "a step failed: %s", fbSim_Error(sim));
    }
    m->neighbours = mean_neighbours(sim);
    m->finite = all_finite(sim);
  }
  note_run(sim, m);
  fbSim_Delete(sim);
  return m->problem[0] == '\0';
}

static void describe_plan(const fbScalePlan *plan, fbMeasure *m)
{
  size_t used = 0;
  for (int k = 0; k < plan->set_count && used < sizeof m->overrides; ++k) {
    used += (size_t)snprintf(m->overrides + used, sizeof m->overrides - used, "%s--set %s", k ? " " : "", plan->text[k]);
  }
}

/*
 * Every repeat loads the scenario again and times the same steps (warmup .. warmup + steps - 1) of
 * the same deterministic run, so the bursts differ by the machine's noise only, and a callgrind run
 * with --repeats 1 counts exactly the steps each burst timed.
 */
bool fbMeasure_Run(const char *path, int agents, const fbMeasureSetup *setup, fbMeasure *m)
{
  *m = (fbMeasure){0};
  static fbScalePlan plan;
  if (!fbScale_Plan(path, agents, setup->spawn, &plan, m->problem, sizeof m->problem)) {
    return false;
  }
  describe_plan(&plan, m);
  double per_agent[FB_MEASURE_MAX_REPEATS], per_step[FB_MEASURE_MAX_REPEATS];
  int done = 0;
  for (; done < setup->repeats; ++done) {
    Burst b;
    if (!time_once(path, &plan, setup, m, &b)) {
      return false;
    }
    m->agent_steps += b.agent_steps;
    per_agent[done] = b.cpu_ns / (double)(b.agent_steps > 0 ? b.agent_steps : 1);
    per_step[done] = b.cpu_ns / setup->steps;
  }
  m->ns = median(per_agent, done);
  m->step_ns = median(per_step, done);
  return true;
}
