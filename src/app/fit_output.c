// fit_output.c — a fit's files: the trace, the best parameters, the posterior and its intervals, and gnuplot scripts drawn into pictures.
#include "fit_output.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csv_text.h"
#include "paths.h"
#include "process.h"

static void path_in(const fbFitRuns *r, const char *name, char *out, size_t len)
{
  snprintf(out, len, "%s/%s", r->e->out, name);
}

bool fbFitOutput_Trace(const fbFitRuns *r, long best, char *err, size_t errlen)
{
  const fbFitSpec *s = r->s;
  char path[4200];
  path_in(r, "trace.csv", path, sizeof path);
  FILE *f = fbCsv_Create(path, err, errlen);
  if (f == NULL) {
    return false;
  }
  fputs("candidate", f);
  for (int i = 0; i < s->param_count; ++i) {
    fputc(',', f);
    fbCsv_Field(f, s->params[i].name);
  }
  fputs(",statistic,objective\n", f);
  for (long k = 0; k < r->count; ++k) {
    fprintf(f, "%ld", k + 1);
    for (int i = 0; i < s->param_count; ++i) {
      fputc(',', f);
      fbCsv_Number(f, r->evals[k].value[i]);
    }
    fputc(',', f);
    fbCsv_Number(f, r->evals[k].statistic);
    fputc(',', f);
    fbCsv_Number(f, r->evals[k].objective);
    fputc('\n', f);
  }
  if (!fbCsv_Commit(f, path, err, errlen)) {
    return false;
  }
  path_in(r, "best.csv", path, sizeof path);
  if ((f = fbCsv_Create(path, err, errlen)) == NULL) {
    return false;
  }
  fputs("name,value\n", f);
  for (int i = 0; i < s->param_count; ++i) {
    fbCsv_Field(f, s->params[i].name);
    fputc(',', f);
    fbCsv_Number(f, r->evals[best].value[i]);
    fputc('\n', f);
  }
  fputs("statistic,", f);
  fbCsv_Number(f, r->evals[best].statistic);
  fputs("\nobjective,", f);
  fbCsv_Number(f, r->evals[best].objective);
  fputc('\n', f);
  return fbCsv_Commit(f, path, err, errlen);
}

bool fbFitOutput_Posterior(const fbFitRuns *r, const fbFitPosterior *post, char *err, size_t errlen)
{
  const fbFitSpec *s = r->s;
  char path[4200];
  path_in(r, "posterior.csv", path, sizeof path);
  FILE *f = fbCsv_Create(path, err, errlen);
  if (f == NULL) {
    return false;
  }
  for (int i = 0; i < s->param_count; ++i) {
    fbCsv_Field(f, s->params[i].name);
    fputc(',', f);
  }
  fputs("weight,distance\n", f);
  for (int k = 0; k < post->count; ++k) {
    for (int i = 0; i < s->param_count; ++i) {
      fbCsv_Number(f, fbFitParam_Value(&s->params[i], post->x[k * post->dim + i]));
      fputc(',', f);
    }
    fbCsv_Number(f, post->weight[k]);
    fputc(',', f);
    fbCsv_Number(f, post->distance[k]);
    fputc('\n', f);
  }
  if (!fbCsv_Commit(f, path, err, errlen)) {
    return false;
  }
  path_in(r, "intervals.csv", path, sizeof path);
  if ((f = fbCsv_Create(path, err, errlen)) == NULL) {
    return false;
  }
  fputs("name,mean,q05,q50,q95\n", f);
  for (int i = 0; i < s->param_count; ++i) {
    const fbFitParam *p = &s->params[i];
    fbCsv_Field(f, p->name);
    fputc(',', f);
    // The mean in parameter units: the weighted mean of the values, not of the box coordinate.
    double mean = 0;
    for (int k = 0; k < post->count; ++k) {
      mean += post->weight[k] * fbFitParam_Value(p, post->x[k * post->dim + i]);
    }
    fbCsv_Number(f, mean);
    for (int q = 0; q < 3; ++q) {  // quantiles commute with the monotone map to parameter units
      fputc(',', f);
      fbCsv_Number(f, fbFitParam_Value(p, fbFitPosterior_Quantile(post, i, (double[]){0.05, 0.5, 0.95}[q])));
    }
    fputc('\n', f);
  }
  return fbCsv_Commit(f, path, err, errlen);
}

// A gnuplot single-quoted string: only the quote itself needs escaping, by doubling it.
static void quoted(FILE *f, const char *text)
{
  fputc('\'', f);
  for (const char *c = text; *c != '\0'; ++c) {
    fputs(*c == '\'' ? "''" : (char[]){*c, 0}, f);
  }
  fputc('\'', f);
}

// trace.csv's objective is column `col`; gnuplot's `skip 1` passes over the header.
static void write_convergence(FILE *f, int col)
{
  fprintf(f, "set datafile separator ','\nset terminal pngcairo size 800,500\nset output 'convergence.png'\n"
        "set xlabel 'candidate'\nset ylabel 'objective (squared error, mean over seeds)'\nset logscale y\n"
        "set key top right\nbest = 1e300\n"
        "plot 'trace.csv' using 1:%d skip 1 with points pt 7 ps 0.5 title 'candidate', \\\n"
        "     '' using 1:(best = ($%d < best ? $%d : best)) skip 1 with steps lw 2 title 'best so far'\n",
        col, col, col);
}

// One weighted histogram per parameter, 20 bins across the posterior's range, side by side.
static void write_posterior(FILE *f, const fbFitSpec *s)
{
  fprintf(f, "set datafile separator ','\nset terminal pngcairo size %d,400\nset output 'posterior.png'\n"
          "set multiplot layout 1,%d\nset style fill solid 0.5\nset ylabel 'posterior weight'\nunset key\n"
          "set xtics rotate by -30\nset format x '%%.4g'\nset bmargin 5\n",
          520 * s->param_count, s->param_count);
  for (int i = 0; i < s->param_count; ++i) {
    fprintf(f, "stats 'posterior.csv' using %d skip 1 nooutput\nw = (STATS_max - STATS_min) / 20 + 1e-300\n"
            "set xlabel ", i + 1);
    quoted(f, s->params[i].name);
    fprintf(f, "\nplot 'posterior.csv' using (STATS_min + w * (floor(($%d - STATS_min) / w) + 0.5)):%d skip 1 "
            "smooth frequency with boxes\n", i + 1, s->param_count + 1);
  }
  fputs("unset multiplot\n", f);
}

static bool draw(const char *gnuplot, const fbFitRuns *r, const char *base)
{
  char script[64], png[4200], log[4200], err[512];
  snprintf(script, sizeof script, "%s.gp", base);
  snprintf(png, sizeof png, "%s/%s.png", r->e->out, base);
  snprintf(log, sizeof log, "%s/%s.gp.log", r->e->out, base);
  unlink(png);
  char *argv[] = {(char *)gnuplot, script, NULL};
  pid_t pid = fbProcess_Start(argv, log, r->e->out, err, sizeof err);
  struct stat st;
  bool ok = pid > 0 && fbProcess_Wait(pid) == 0 && stat(png, &st) == 0 && st.st_size > 0;
  if (ok) {
    unlink(log);
  } else {
    fprintf(stderr, "fit: gnuplot could not draw %s (see %s)\n", png, log);
  }
  return ok;
}

int fbFitOutput_Plots(const fbFitRuns *r, bool posterior)
{
  const char *bases[] = {"convergence", "posterior"};
  char gnuplot[4096], path[4200];
  bool have_gnuplot = fbProcess_Find("gnuplot", gnuplot, sizeof gnuplot);
  int drawn = 0;
  for (int b = 0; b < (posterior ? 2 : 1); ++b) {
    snprintf(path, sizeof path, "%s/%s.gp", r->e->out, bases[b]);
    char why[256] = "";
    FILE *f = fbFilePath_OpenOutput(path, "w", why, sizeof why);
    if (f == NULL) {
      fprintf(stderr, "fit: %s: cannot be written: %s\n", path, why);
      continue;
    }
    fprintf(f, "# Written by flockbox fit; edit it and redraw, in this folder, with: gnuplot %s.gp\n", bases[b]);
    if (b == 0) {
      write_convergence(f, r->s->param_count + 3);
    } else {
      write_posterior(f, r->s);
    }
    if (fclose(f) == 0 && have_gnuplot) {
      drawn += draw(gnuplot, r, bases[b]);
    }
  }
  if (!have_gnuplot) {
    fprintf(stderr, "fit: gnuplot is not installed: plot scripts written to %s/*.gp, no pictures\n", r->e->out);
  }
  return drawn;
}
