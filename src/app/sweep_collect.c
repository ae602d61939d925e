// sweep_collect.c — merging the runs of a sweep into results.csv and summary.csv.
#define _POSIX_C_SOURCE 200809L
#include "sweep_collect.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv_text.h"
#include "fb.h"
#include "paths.h"
#include "run_record.h"

// The columns of results.csv between the grid parameters and the measures.
static const char RUN_COLUMNS[] = "seed,status,exit_status,outcome,outcome_time,steps";

// Running mean and sum of squared deviations (Welford): one pass, no cancellation.
typedef struct measure_stat {
  long n;
  double mean, m2;
  bool text;   // a value that is not a number was seen: no mean for this measure
} measure_stat;

typedef struct collected {
  const fbPlan *p;
  fbTextList measures;  // final-row columns of every run, in order of first appearance, step left out
  measure_stat *stats;          // points × measures
  fbTextList outcomes;  // labels seen in complete runs, in order of first appearance
  long *outcome_runs;   // points × outcomes: complete runs with that label
  long *states;         // points × 4: runs per fbRunState
} collected;

static int find(const fbTextList *l, const char *text)
{
  for (int k = 0; k < l->count; ++k) {
    if (strcmp(l->items[k], text) == 0) {
      return k;
    }
  }
  return -1;
}

// ---- the columns --------------------------------------------------------------------------------

/*
 * The measures are the union of the runs' CSV headers, in run order, so the columns are the same
 * whatever order the runs were made in. Runs of one scenario normally share one header; a column
 * missing from a run (a species it did not have) is left empty in its row.
 */
static void gather_measures(collected *c)
{
  const fbPlan *p = c->p;
  char path[4200];
  char *line = NULL;
  size_t cap = 0;
  for (long run = 1; run <= p->runs; ++run) {
    int exit_status;
    if (fbRunRecord_State(p, run, &exit_status) == FB_RUN_PENDING) {
      continue;
    }
    fbPlan_RunFile(p, run, ".csv", path, sizeof path);
    char why[256];
    FILE *f = fbFilePath_OpenRegular(path, FB_MAX_TABLE_BYTES, NULL, why, sizeof why);
    if (f != NULL && fbCsv_ReadLine(f, &line, &cap)) {
      fbTextList header = {0};
      fbCsv_Split(line, &header);
      for (int k = 0; k < header.count; ++k) {
        if (strcmp(header.items[k], "step") != 0 && find(&c->measures, header.items[k]) < 0) {
          fbTextList_Add(&c->measures, header.items[k]);
        }
      }
      fbTextList_Free(&header);
    }
    if (f != NULL) {
      fclose(f);
    }
  }
  free(line);
}

static void write_headers(const collected *c, FILE *f)
{
  const fbExperiment *e = c->p->e;
  fputs("run", f);
  for (int a = 0; a < e->axis_count; ++a) {
    fputc(',', f);
    fbCsv_Field(f, e->axes[a].name);
  }
  fprintf(f, ",%s", RUN_COLUMNS);
  for (int m = 0; m < c->measures.count; ++m) {
    fputc(',', f);
    fbCsv_Field(f, c->measures.items[m]);
  }
  fputc('\n', f);
}

// ---- one run ------------------------------------------------------------------------------------

// Adds a complete run's value of measure m to its grid point's statistics; NaN is left out.
static void add_value(measure_stat *s, const char *text)
{
  char *end;
  double v = strtod(text, &end);
  if (end == text || *end != '\0') {
    s->text = s->text || text[0] != '\0';
    return;
  }
  if (isnan(v)) {
    return;
  }
  s->n++;
  double delta = v - s->mean;
  s->mean += delta / (double)s->n;
  s->m2 += delta * (v - s->mean);
}

// Counts a complete run's outcome label at its grid point (the table grows by a column per new label).
static void add_outcome(collected *c, long point, const char *label)
{
  int k = find(&c->outcomes, label);
  if (k < 0) {
    int old = c->outcomes.count;
    long *grown = calloc((size_t)c->p->points * (size_t)(old + 1), sizeof *grown);
    FB_ASSERT(grown != NULL);
    for (long pt = 0; pt < c->p->points && old > 0; ++pt) {
      memcpy(grown + pt * (old + 1), c->outcome_runs + pt * old, (size_t)old * sizeof *grown);
    }
    free(c->outcome_runs);
    c->outcome_runs = grown;
    fbTextList_Add(&c->outcomes, label);
    k = old;
  }
  c->outcome_runs[point * c->outcomes.count + k]++;
}

static void write_run(collected *c, FILE *f, long run, const fbRunRecord *r)
{
  const fbPlan *p = c->p;
  long point = fbPlan_PointOf(p, run);
  fprintf(f, "%ld", run);
  for (int a = 0; a < p->e->axis_count; ++a) {
    fputc(',', f);
    fbCsv_Field(f, fbPlan_Value(p, point, a));
  }
  fprintf(f, ",%lld,%s,", fbPlan_SeedOf(p, run), fbRunState_Name(r->state));
  if (r->exit_status >= 0) {
    fprintf(f, "%d", r->exit_status);
  }
  const char *texts[] = {r->outcome, r->outcome_time, r->steps};
  for (int k = 0; k < 3; ++k) {
    fputc(',', f);
    fbCsv_Field(f, texts[k]);
  }
  bool complete = r->state == FB_RUN_COMPLETE;
  for (int m = 0; m < c->measures.count; ++m) {
    int k = find(&r->columns, c->measures.items[m]);
    const char *value = k >= 0 && k < r->values.count ? r->values.items[k] : "";
    fputc(',', f);
    fbCsv_Field(f, value);
    if (complete) {
      add_value(&c->stats[point * c->measures.count + m], value);
    }
  }
  fputc('\n', f);
  if (complete && r->outcome[0] != '\0') {
    add_outcome(c, point, r->outcome);
  }
  c->states[point * 4 + r->state]++;
}

/*
 * Runs are one experiment only if one build made them from the same files. The plan file catches
 * an edited scenario; the runs' metadata also names every rule module and terrain they read, by
 * SHA-256, and the flockbox version: a sweep resumed after editing a rule, or collected from hosts
 * with another build, is counted here and reported.
 */
static void compare_inputs(fbSweepCounts *counts, long run, const fbRunRecord *r, char *reference)
{
  if (r->made_from[0] == '\0' || !r->has_metadata) {
    return;
  }
  if (reference[0] == '\0') {
    snprintf(reference, 65, "%s", r->made_from);
    counts->reference = run;
  } else if (strcmp(reference, r->made_from) != 0) {
    counts->other_inputs++;
    counts->first_other = counts->first_other ? counts->first_other : run;
  }
}

static void count_run(fbSweepCounts *counts, long run, const fbRunRecord *r)
{
  switch (r->state) {
  case FB_RUN_PENDING: counts->pending++; break;
  case FB_RUN_COMPLETE: counts->complete++; break;
  case FB_RUN_INCOMPLETE:
    counts->incomplete++;
    counts->first_incomplete = counts->first_incomplete ? counts->first_incomplete : run;
    break;
  case FB_RUN_FAILED:
    counts->failed++;
    if (counts->first_failed == 0) {
      counts->first_failed = run;
      counts->first_failed_exit = r->exit_status;
    }
    break;
  }
}

static bool write_results(collected *c, fbSweepCounts *counts, char *err, size_t errlen)
{
  const fbPlan *p = c->p;
  char path[4200];
  snprintf(path, sizeof path, "%s/results.csv", p->e->out);
  FILE *f = fbCsv_Create(path, err, errlen);
  if (f == NULL) {
    return false;
  }
  write_headers(c, f);
  char reference[65] = "";
  for (long run = 1; run <= p->runs; ++run) {
    fbRunRecord r;
    fbRunRecord_Load(&r, p, run);
    write_run(c, f, run, &r);
    count_run(counts, run, &r);
    compare_inputs(counts, run, &r, reference);
    fbRunRecord_Free(&r);
  }
  return fbCsv_Commit(f, path, err, errlen);
}

// ---- the summary --------------------------------------------------------------------------------

/*
 * A row per grid point. Means, standard errors (the sample standard deviation over sqrt(n), for
 * n >= 2) and outcome fractions are over the point's complete runs only: a run that lost a rule or
 * failed is not the experiment it claims to be, so it is counted (incomplete, failed) but kept out
 * of every mean. NaN values (a measure of a species with no agents left) are left out too, and
 * <measure>_n says how many values each mean is of.
 */
static void write_summary_row(const collected *c, FILE *f, long point)
{
  const fbExperiment *e = c->p->e;
  for (int a = 0; a < e->axis_count; ++a) {
    fbCsv_Field(f, fbPlan_Value(c->p, point, a));
    fputc(',', f);
  }
  const long *states = &c->states[point * 4];
  long complete = states[FB_RUN_COMPLETE];
  fprintf(f, "%ld,%ld,%ld,%ld,%ld", c->p->seeds, complete, states[FB_RUN_INCOMPLETE], states[FB_RUN_FAILED],
          states[FB_RUN_PENDING]);
  for (int m = 0; m < c->measures.count; ++m) {
    const measure_stat *s = &c->stats[point * c->measures.count + m];
    if (!s->text) {
      fputc(',', f);
      fbCsv_Number(f, s->n > 0 ? s->mean : NAN);
      fputc(',', f);
      fbCsv_Number(f, s->n > 1 ? sqrt(s->m2 / (double)(s->n - 1)) / sqrt((double)s->n) : NAN);
      fprintf(f, ",%ld", s->n);
    }
  }
  for (int k = 0; k < c->outcomes.count; ++k) {
    fputc(',', f);
    long with = c->outcome_runs[point * c->outcomes.count + k];
    fbCsv_Number(f, complete > 0 ? (double)with / (double)complete : NAN);
  }
  fputc('\n', f);
}

static bool write_summary(const collected *c, char *err, size_t errlen)
{
  const fbPlan *p = c->p;
  char path[4200];
  snprintf(path, sizeof path, "%s/summary.csv", p->e->out);
  FILE *f = fbCsv_Create(path, err, errlen);
  if (f == NULL) {
    return false;
  }
  for (int a = 0; a < p->e->axis_count; ++a) {
    fbCsv_Field(f, p->e->axes[a].name);
    fputc(',', f);
  }
  fputs("runs,complete,incomplete,failed,pending", f);
  for (int m = 0; m < c->measures.count; ++m) {
    bool text = false;
    for (long point = 0; point < p->points; ++point) {
      text = text || c->stats[point * c->measures.count + m].text;
    }
    for (long point = 0; text && point < p->points; ++point) {
      c->stats[point * c->measures.count + m].text = true;  // a measure is numeric everywhere or nowhere
    }
    const char *name = c->measures.items[m];
    if (!text) {
      fputc(',', f);
      fprintf(f, "%s_mean,%s_se,%s_n", name, name, name);
    }
  }
  for (int k = 0; k < c->outcomes.count; ++k) {
    fprintf(f, ",outcome_%s", c->outcomes.items[k]);
  }
  fputc('\n', f);
  for (long point = 0; point < p->points; ++point) {
    write_summary_row(c, f, point);
  }
  return fbCsv_Commit(f, path, err, errlen);
}

bool fbSweepCollect_Write(const fbPlan *p, fbSweepCounts *counts, char *err, size_t errlen)
{
  memset(counts, 0, sizeof *counts);
  collected c = {.p = p};
  gather_measures(&c);
  c.stats = calloc((size_t)p->points * (size_t)(c.measures.count + 1), sizeof *c.stats);
  c.states = calloc((size_t)p->points * 4, sizeof *c.states);
  FB_ASSERT(c.stats != NULL && c.states != NULL);
  bool ok = write_results(&c, counts, err, errlen) && write_summary(&c, err, errlen);
  free(c.stats);
  free(c.states);
  free(c.outcome_runs);
  fbTextList_Free(&c.measures);
  fbTextList_Free(&c.outcomes);
  return ok;
}
