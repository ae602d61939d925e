// fit_runs.c — evaluating a fit's candidates through the sweep machinery: a plan per candidate, its runs made by the pool, the statistic read from each run's CSV.
#include "fit_runs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb.h"
#include "plan.h"
#include "run_record.h"
#include "sweep_check.h"
#include "sweep_pool.h"

void fbFitRuns_Free(fbFitRuns *r)
{
  free(r->evals);
  r->evals = NULL;
  r->count = r->cap = 0;
}

static bool option(fbExperiment *c, const char *opt, const char *value, fbFitRuns *r)
{
  if (fbExperiment_Option(c, opt, value, r->err, sizeof r->err) == 0) {
    return true;
  }
  r->status = 2;
  return false;
}

// The candidate as an experiment of its own: the fit's, with a one-value grid axis per parameter.
static bool candidate_experiment(fbFitRuns *r, long k, const double *value, fbExperiment *c)
{
  const fbExperiment *e = r->e;
  char text[4200];
  fbExperiment_Init(c);
  bool ok = option(c, "--scenario", e->scenario, r);
  snprintf(text, sizeof text, "%ld", e->steps);
  ok = ok && option(c, "--steps", text, r);
  snprintf(text, sizeof text, "%ld", e->every);
  ok = ok && (e->every == 0 || option(c, "--every", text, r));
  snprintf(text, sizeof text, "%lld-%lld", e->seed_first, e->seed_last);
  ok = ok && option(c, "--seeds", text, r);
  for (int i = 0; ok && i < e->sets.count; ++i) {
    ok = option(c, "--set", e->sets.items[i], r);
  }
  for (int i = 0; ok && i < e->seed_sets.count; ++i) {
    ok = option(c, "--seed-set", e->seed_sets.items[i], r);
  }
  for (int i = 0; ok && i < r->s->param_count; ++i) {
    snprintf(text, sizeof text, "%s=%.12g", r->s->params[i].name, value[i]);
    ok = option(c, "--grid", text, r);
  }
  snprintf(text, sizeof text, "%s/evals/%ld", e->out, k);
  return ok && option(c, "--out", text, r);
}

static bool fail(fbFitRuns *r, int status, const char *err)
{
  r->status = status;
  if (err != r->err) {
    snprintf(r->err, sizeof r->err, "%s", err);
  }
  return false;
}

// Claims the candidate's folder for its plan (and checks the first candidate's values against
// the scenario); false (r->status, r->err) when it cannot.
static bool claim_candidate(fbFitRuns *r, const fbPlan *p, long k)
{
  char err[2048];
  int status = fbPlan_Claim(p, false, err, sizeof err);
  if (status == 2) {
    snprintf(r->err, sizeof r->err, "%.1500s (candidate %ld differs from the one made there: the fit file, its options "
             "or the build changed; use another out folder)", err, k);
    return fail(r, 2, r->err);
  }
  if (status != 0) {
    return fail(r, status, err);
  }
  if (k == 1 && (status = fbSweepCheck_Runs(p, err, sizeof err)) != 0) {
    return fail(r, status == 1 ? 1 : 2, err);
  }
  return true;
}

static long *pending_runs(const fbPlan *p, long *count);

// Makes the candidate's pending runs; false (r->status, r->err) if they cannot be made.
static bool make_runs(fbFitRuns *r, const fbPlan *p, long k)
{
  char err[2048];
  if (!claim_candidate(r, p, k)) {
    return false;
  }
  long count, *runs = pending_runs(p, &count);
  bool interrupted = false, ok = true;
  if (count > 0) {
    fbPoolOptions po = {r->jobs, 0, true, false};
    ok = fbSweepPool_Run(p, runs, count, &po, &interrupted, err, sizeof err);
  }
  free(runs);
  if (!ok) {
    return fail(r, 1, err);
  }
  if (interrupted) {
    return fail(r, 130, "interrupted; run the same command again to resume (the runs made are kept)");
  }
  return true;
}

// The statistic of every run of the candidate, and the objective from them.
static bool measure(fbFitRuns *r, const fbPlan *p, long k, fbFitEval *v)
{
  const fbFitTarget *t = &r->s->target;
  double sum = 0, sq = 0;
  for (long run = 1; run <= p->runs; ++run) {
    int exit_status;
    char csv[4200], err[1024];
    if (fbRunRecord_State(p, run, &exit_status) != FB_RUN_COMPLETE) {
      snprintf(r->err, sizeof r->err, "candidate %ld: run %ld did not complete (exit status %d): see %s/runs/%ld.log",
               k, run, exit_status, p->e->out, run);
      return fail(r, 3, r->err);
    }
    fbPlan_RunFile(p, run, ".csv", csv, sizeof csv);
    double stat;
    if (!t->statistic(t, csv, &stat, err, sizeof err)) {
      return fail(r, 2, err);
    }
    sum += stat;
    sq += (stat - t->value) * (stat - t->value);
  }
  v->statistic = sum / (double)p->runs;
  v->objective = sq / (double)p->runs;
  return true;
}

/*
 * --list: the candidate's pending runs as `flockbox sweep` commands, one per line, for GNU parallel
 * (or a Slurm array reading the list). The options rebuild the candidate's experiment in the order
 * candidate_experiment gives them, so the sweep finds the candidate's plan file its own.
 */
static void list_runs(const fbFitRuns *r, const fbPlan *p, const fbExperiment *c, const long *runs, long count)
{
  const fbExperiment *e = r->e;
  char text[4200];
  for (long i = 0; i < count; ++i) {
    fbPlan_ShellWord(stdout, r->self);
    fputs(" sweep --quiet --scenario ", stdout);
    fbPlan_ShellWord(stdout, e->scenario);
    printf(" --steps %ld", e->steps);
    if (e->every > 0) {
      printf(" --every %ld", e->every);
    }
    printf(" --seeds %lld-%lld", e->seed_first, e->seed_last);
    for (int k = 0; k < e->sets.count; ++k) {
      fputs(" --set ", stdout);
      fbPlan_ShellWord(stdout, e->sets.items[k]);
    }
    for (int k = 0; k < e->seed_sets.count; ++k) {
      fputs(" --seed-set ", stdout);
      fbPlan_ShellWord(stdout, e->seed_sets.items[k]);
    }
    for (int a = 0; a < c->axis_count; ++a) {
      snprintf(text, sizeof text, "%s=%s", c->axes[a].name, c->axes[a].values.items[0]);
      fputs(" --grid ", stdout);
      fbPlan_ShellWord(stdout, text);
    }
    fputs(" --out ", stdout);
    fbPlan_ShellWord(stdout, c->out);
    printf(" --run %ld\n", runs[i]);
  }
  (void)p;
}

// The candidate's runs not made yet; the caller frees the list.
static long *pending_runs(const fbPlan *p, long *count)
{
  long *runs = malloc(sizeof *runs * (size_t)p->runs);
  FB_ASSERT(runs != NULL);
  *count = 0;
  for (long run = 1; run <= p->runs; ++run) {
    int exit_status;
    if (fbRunRecord_State(p, run, &exit_status) == FB_RUN_PENDING) {
      runs[(*count)++] = run;
    }
  }
  return runs;
}

typedef enum outcome { EVALUATED, LISTED, STOPPED } outcome;

// Candidate k at u: made and measured (EVALUATED), its pending runs listed (LISTED, with --list), or
// STOPPED (r->status says why).
static outcome evaluate(fbFitRuns *r, long k, const double *u, double *f)
{
  fbFitEval *v = &r->evals[k - 1];
  for (int i = 0; i < r->s->param_count; ++i) {
    v->value[i] = fbFitParam_Value(&r->s->params[i], u[i]);
  }
  fbExperiment c;
  fbPlan p;
  outcome result = STOPPED;
  if (candidate_experiment(r, k, v->value, &c)) {
    fbPlan_Make(&p, &c, r->self);
    long count = 0, *runs = NULL;
    if (r->list_only && claim_candidate(r, &p, k) && (runs = pending_runs(&p, &count)) != NULL && count > 0) {
      list_runs(r, &p, &c, runs, count);
      r->listed += count;
      result = LISTED;
    } else if ((r->list_only ? r->status == 0 : make_runs(r, &p, k)) && measure(r, &p, k, v)) {
      result = EVALUATED;
    }
    free(runs);
  }
  fbExperiment_Free(&c);
  if (result == EVALUATED) {
    *f = v->objective;
    if (!r->quiet) {
      fprintf(stderr, "fit: candidate %ld: objective %.6g\n", k, v->objective);
    }
  }
  return result;
}

/*
 * A batch's candidates are numbered before any is made, so that with --list every candidate of a
 * generation gets its number and its commands at once, and a later call finds them in place.
 */
bool fbFitRuns_Objective(void *ctx, const double *x, int n, int dim, double *f)
{
  fbFitRuns *r = ctx;
  if (r->count + n > r->cap) {
    r->cap = r->count + n > 2 * r->cap ? r->count + n : 2 * r->cap;
    r->evals = realloc(r->evals, sizeof *r->evals * (size_t)r->cap);
    FB_ASSERT(r->evals != NULL);
  }
  bool listed = false;
  for (int i = 0; i < n; ++i) {
    outcome o = evaluate(r, r->count + 1 + i, &x[i * dim], &f[i]);
    if (o == STOPPED) {
      return false;
    }
    listed = listed || o == LISTED;
  }
  if (listed) {
    r->status = 4;
    snprintf(r->err, sizeof r->err, "%ld runs of candidates %ld to %ld listed: make them (| parallel), then run "
             "the same command again", r->listed, r->count + 1, r->count + n);
    return false;
  }
  r->count += n;
  return true;
}
