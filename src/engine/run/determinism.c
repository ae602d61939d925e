// determinism.c — checking that a scenario runs the same on any thread count and any storage order.
#include "determinism.h"

#include <string.h>

enum { REFERENCE, PARALLEL, REVERSED, RUNS };

static fbSim *load_run(int which, const char *path, const fbRunOptions *options, int threads, char *err, size_t errlen)
{
  fbRunOptions o = *options;
  o.threads = which == PARALLEL ? threads : 1;
  fbSim *sim = fbSim_NewFromFile(path, &o, err, errlen);
  if (sim != NULL && which == REVERSED) {
    fbSim_ReverseStorage(sim);
  }
  return sim;
}

static bool same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/*
 * The smallest id whose position or velocity differs bit for bit between the runs, or 0 when the
 * sets of ids differ; UINT32_MAX when they are identical. Agents are found by id: their storage
 * order is exactly what may differ.
 */
static uint32_t first_difference(const fbSim *a, const fbSim *b)
{
  const fbWorld *wa = fbSim_World(a), *wb = fbSim_World(b);
  const fbAgents *x = &wa->agents, *y = &wb->agents;
  if (x->count != y->count) {
    return 0;
  }
  uint32_t first = UINT32_MAX;
  for (int i = 0; i < x->count; ++i) {
    int j = fbWorld_FindAgent(wb, x->id[i]);
    if (j < 0) {
      return 0;
    }
    bool same = same_bits(x->px[i], y->px[j]) && same_bits(x->py[i], y->py[j]) && same_bits(x->vx[i], y->vx[j]) &&
                same_bits(x->vy[i], y->vy[j]);
    if (!same && x->id[i] < first) {
      first = x->id[i];
    }
  }
  return first;
}

static void note_agent(fbDeterminismReport *r, const fbSim *a, const fbSim *b, uint32_t id)
{
  r->agent = id;
  const fbWorld *wa = fbSim_World(a), *wb = fbSim_World(b);
  int i = id ? fbWorld_FindAgent(wa, id) : -1, j = id ? fbWorld_FindAgent(wb, id) : -1;
  if (i < 0 || j < 0) {
    return;
  }
  const fbAgents *x = &wa->agents, *y = &wb->agents;
  snprintf(r->species, sizeof r->species, "%s", wa->species[x->species[i]].name);
  double ref[4] = {x->px[i], x->py[i], x->vx[i], x->vy[i]}, other[4] = {y->px[j], y->py[j], y->vx[j], y->vy[j]};
  memcpy(r->reference, ref, sizeof ref);
  memcpy(r->other, other, sizeof other);
}

// The agent's rule outputs in sims a and b (each watched it for the last step): the first rule
// whose output differs is named in r.
static void name_rule(const fbSim *a, const fbSim *b, fbDeterminismReport *r)
{
  const fbWorld *w = fbSim_World(a);
  int i = fbWorld_FindAgent(w, r->agent);
  int s = i >= 0 ? w->agents.species[i] : 0;
  for (int k = 0; i >= 0 && k < w->species[s].rule_count; ++k) {
    fbVec2 u = {0, 0}, v = {0, 0};
    bool ran_a = fbSim_InspectOutput(a, k, &u), ran_b = fbSim_InspectOutput(b, k, &v);
    if (ran_a != ran_b || !same_bits(u.x, v.x) || !same_bits(u.y, v.y)) {
      snprintf(r->rule, sizeof r->rule, "%s", fbSim_RuleName(a, s, k));
      r->rule_reference[0] = u.x, r->rule_reference[1] = u.y;
      r->rule_other[0] = v.x, r->rule_other[1] = v.y;
      return;
    }
  }
}

// Runs the reference and the differing run again, fresh, up to the step before the difference,
// then one step watching the agent, so that the rule whose output first differed can be named.
static bool find_rule(int other, const char *path, const fbRunOptions *o, int threads, fbDeterminismReport *r,
                      char *err, size_t errlen)
{
  fbSim *again[2] = {NULL, NULL};
  int which[2] = {REFERENCE, other};
  bool ok = true;
  for (int k = 0; ok && k < 2; ++k) {
    fbSim *sim = again[k] = load_run(which[k], path, o, threads, err, errlen);
    ok = sim != NULL;
    for (long s = 1; ok && s <= r->step; ++s) {
      if (s == r->step) {
        fbSim_Inspect(sim, r->agent);
      }
      ok = fbSim_Step(sim) || (snprintf(err, errlen, "%s", fbSim_Error(sim)), false);
    }
  }
  if (ok) {
    name_rule(again[0], again[1], r);
  }
  fbSim_Delete(again[0]);
  fbSim_Delete(again[1]);
  return ok;
}

static bool step_all(fbSim *runs[RUNS], char *err, size_t errlen)
{
  for (int k = 0; k < RUNS; ++k) {
    if (!fbSim_Step(runs[k])) {
      snprintf(err, errlen, "%s", fbSim_Error(runs[k]));
      return false;
    }
  }
  return true;
}

static bool compare_runs(fbSim *runs[RUNS], const char *path, const fbRunOptions *o, int threads, long steps,
                         fbDeterminismReport *r, char *err, size_t errlen)
{
  for (long step = 0; step <= steps; ++step) {
    if (step > 0 && !step_all(runs, err, errlen)) {
      return false;
    }
    r->steps = step;
    uint32_t by_threads = first_difference(runs[REFERENCE], runs[PARALLEL]);
    uint32_t by_order = first_difference(runs[REFERENCE], runs[REVERSED]);
    if (by_threads == UINT32_MAX && by_order == UINT32_MAX) {
      continue;
    }
    r->same = false;
    r->step = step;
    r->threads_differ = by_threads != UINT32_MAX;
    r->order_differs = by_order != UINT32_MAX;
    int other = r->threads_differ ? PARALLEL : REVERSED;
    note_agent(r, runs[REFERENCE], runs[other], r->threads_differ ? by_threads : by_order);
    return step == 0 || r->agent == 0 || find_rule(other, path, o, threads, r, err, errlen);
  }
  return true;
}

bool fbDeterminism_Check(const char *path, const fbRunOptions *options, long steps, int threads,
                         fbDeterminismReport *report, char *err, size_t errlen)
{
  memset(report, 0, sizeof *report);
  report->same = true;
  report->threads = threads;
  fbSim *runs[RUNS] = {NULL};
  bool ok = true;
  for (int k = 0; ok && k < RUNS; ++k) {
    ok = (runs[k] = load_run(k, path, options, threads, err, errlen)) != NULL;
  }
  ok = ok && compare_runs(runs, path, options, threads, steps, report, err, errlen);
  for (int k = 0; k < RUNS; ++k) {
    fbSim_Delete(runs[k]);
  }
  return ok;
}

void fbDeterminism_Print(const fbDeterminismReport *r, const char *path, FILE *out)
{
  if (r->same) {
    char threads[32] = "1 thread";
    if (r->threads > 1) {
      snprintf(threads, sizeof threads, "1 and %d threads", r->threads);
    }
    fprintf(out, "%s: deterministic over %ld steps: the same on %s and with the agents stored in reverse order\n",
            path, r->steps, threads);
    return;
  }
  fprintf(out, "%s: NOT deterministic: after step %ld the run %s\n", path, r->step,
          r->threads_differ && r->order_differs ? "differs on " "more threads and with the agents reordered"
          : r->threads_differ                   ? "on more threads differs from the run on 1"
                                                : "with the agents stored in reverse order differs");
  if (r->agent == 0) {
    fprintf(out, "  the runs do not hold the same agents: spawns or removals depend on the order of the agents\n");
  } else {
    fprintf(out, "  first agent: id %u (%s): x %.17g, y %.17g, vx %.17g, vy %.17g on 1 thread;\n"
                 "                    x %.17g, y %.17g, vx %.17g, vy %.17g in the other run\n",
            r->agent, r->species, r->reference[0], r->reference[1], r->reference[2], r->reference[3], r->other[0],
            r->other[1], r->other[2], r->other[3]);
  }
  if (r->rule[0] != '\0') {
    fprintf(out, "  first rule whose output differs for it: '%s' (%.17g, %.17g) vs (%.17g, %.17g)\n", r->rule,
            r->rule_reference[0], r->rule_reference[1], r->rule_other[0], r->rule_other[1]);
  }
  fputs("  What this usually means: a rule keeps state between calls in a module-level variable (a\n"
        "  local outside steer, or a table it changes). Each worker thread has its own copy of the\n"
        "  module, and agents are visited in an order that depends on threads and storage, so what one\n"
        "  agent's call leaves there changes what the next one computes. Keep per-agent state in fields\n"
        "  (fields = { name = 0 }, read a.name, write a:set(\"name\", v)), use a:random() rather than\n"
        "  math.random, and compute each call from its arguments alone.\n",
        out);
}
