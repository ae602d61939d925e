// profile.c — the per-rule profile's clock, sums and table.
#define _POSIX_C_SOURCE 200809L
#include "profile.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

// The calling thread's CPU clock (profile.h says why CPU time). Where there is none (the browser
// build, one thread) the monotonic clock stands in: with one thread and no other load they agree.
double fbProfile_Now(void)
{
  struct timespec t;
#if defined(CLOCK_THREAD_CPUTIME_ID) && !defined(__EMSCRIPTEN__)
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
#else
  clock_gettime(CLOCK_MONOTONIC, &t);
#endif
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

// The cost of one clock read: the median of 9 runs of 1000 back-to-back reads, per read. A timing
// is two reads apart, and the second read's own cost lands inside it; taking one read off each
// timing leaves the work it timed.
static double clock_cost(void)
{
  double runs[9];
  for (int r = 0; r < 9; ++r) {
    double t0 = fbProfile_Now(), t = t0;
    for (int k = 0; k < 1000; ++k) {
      t = fbProfile_Now();
    }
    runs[r] = (t - t0) / 1000.0;
  }
  for (int i = 1; i < 9; ++i) {  // insertion sort of nine numbers
    for (int j = i; j > 0 && runs[j - 1] > runs[j]; --j) {
      double x = runs[j];
      runs[j] = runs[j - 1];
      runs[j - 1] = x;
    }
  }
  return runs[4];
}

void fbProfile_Reset(fbProfile *p)
{
  memset(p->threads, 0, sizeof p->threads);
  p->steps = 0;
}

void fbProfile_Start(fbProfile *p)
{
  fbProfile_Reset(p);
  p->clock_ns = clock_cost();
  p->on = true;
}

static int by_cost(const void *a, const void *b)
{
  const fbProfileRow *x = a, *y = b;
  if (x->share != y->share) {
    return x->share < y->share ? 1 : -1;
  }
  int c = strcmp(x->species, y->species);
  return c != 0 ? c : strcmp(x->part, y->part);
}

static void add_row(fbProfileRow *rows, int *n, int max, const char *species, const char *part, double ns,
                    double agent_steps, long steps)
{
  if (*n >= max) {
    return;
  }
  fbProfileRow *r = &rows[(*n)++];
  snprintf(r->species, sizeof r->species, "%s", species);
  snprintf(r->part, sizeof r->part, "%s", part);
  r->us_per_agent_step = agent_steps > 0 ? ns / agent_steps / 1e3 : 0.0;
  r->ms_per_step = ns / (double)steps / 1e6;
  r->share = ns;  // made a share once the total is known
}

int fbProfile_Table(const fbProfile *p, const fbWorld *w, fbProfileRuleName rule_name, const void *ctx,
                    fbProfileRow *rows, int max)
{
  fbProfileCounters sum = {0};
  for (int t = 0; t < FB_MAX_THREADS; ++t) {
    const fbProfileCounters *c = &p->threads[t];
    sum.perception_ns += c->perception_ns;
    sum.busy_ns += c->busy_ns;
    sum.reads += c->reads;
    for (int s = 0; s < w->species_count; ++s) {
      sum.view_ns[s] += c->view_ns[s];
      sum.agent_steps[s] += c->agent_steps[s];
      for (int k = 0; k < w->species[s].rule_count; ++k) {
        sum.rule_ns[s][k] += c->rule_ns[s][k];
      }
    }
  }
  double all_agent_steps = 0.0;
  for (int s = 0; s < w->species_count; ++s) {
    all_agent_steps += sum.agent_steps[s];
  }
  if (p->steps == 0 || all_agent_steps == 0.0) {
    return 0;
  }
  // The parts first; the catch-all is what is left of all threads' CPU time once the parts and
  // the clock reads that timed them are taken off (never below zero: a read's cost is an estimate).
  int n = 0;
  long steps = p->steps;
  add_row(rows, &n, max, "", "(perception)", sum.perception_ns, all_agent_steps, steps);
  double parts = sum.perception_ns;
  for (int s = 0; s < w->species_count; ++s) {
    const fbSpecies *sp = &w->species[s];
    if (!sp->all_native) {
      add_row(rows, &n, max, sp->name, "(view)", sum.view_ns[s], sum.agent_steps[s], steps);
      parts += sum.view_ns[s];
    }
    for (int k = 0; k < sp->rule_count; ++k) {
      add_row(rows, &n, max, sp->name, rule_name(ctx, s, k), sum.rule_ns[s][k], sum.agent_steps[s], steps);
      parts += sum.rule_ns[s][k];
    }
  }
  double rest = sum.busy_ns - parts - sum.reads * p->clock_ns;
  rest = rest > 0.0 ? rest : 0.0;
  add_row(rows, &n, max, "", FB_PROFILE_REST, rest, all_agent_steps, steps);
  double total = 0.0;
  for (int k = 0; k < n; ++k) {
    total += rows[k].share;
  }
  for (int k = 0; k < n; ++k) {
    rows[k].share = total > 0 ? rows[k].share / total : 0.0;
  }
  qsort(rows, (size_t)n, sizeof rows[0], by_cost);
  return n;
}

double fbProfile_StepMs(const fbProfileRow *rows, int n)
{
  double ms = 0.0;
  for (int k = 0; k < n; ++k) {
    ms += rows[k].ms_per_step;
  }
  return ms;
}

void fbProfile_Print(const fbProfileRow *rows, int n, long steps, int threads, FILE *out)
{
  fprintf(out, "profile over %ld steps on %d thread%s (CPU time summed over threads, %.3f ms per step):\n", steps,
          threads, threads == 1 ? "" : "s", fbProfile_StepMs(rows, n));
  fprintf(out, "  %-16s %-40s %12s %10s %7s\n", "species", "part", "us/agent-step", "ms/step", "share");
  for (int k = 0; k < n; ++k) {
    fprintf(out, "  %-16s %-40s %12.3f %10.4f %6.1f%%\n", rows[k].species[0] ? rows[k].species : "(all)",
            rows[k].part, rows[k].us_per_agent_step, rows[k].ms_per_step, 100.0 * rows[k].share);
  }
}
