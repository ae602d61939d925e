// sweep_plot.c — gnuplot scripts from a sweep's summary.csv, and the pictures gnuplot draws from them.
#define _POSIX_C_SOURCE 200809L
#include "sweep_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csv_text.h"
#include "fb.h"
#include "paths.h"
#include "process.h"

typedef struct summary {
  fbTextList header;
  fbTextList *rows;
  long count;
} summary;

static bool read_summary(const char *path, summary *s)
{
  memset(s, 0, sizeof *s);
  char why[256];
  FILE *f = fbFilePath_OpenRegular(path, FB_MAX_TABLE_BYTES, NULL, why, sizeof why);
  if (f == NULL) {
    return false;
  }
  char *line = NULL;
  size_t cap = 0;
  if (fbCsv_ReadLine(f, &line, &cap)) {
    fbCsv_Split(line, &s->header);
  }
  while (fbCsv_ReadLine(f, &line, &cap)) {
    s->rows = realloc(s->rows, (size_t)(s->count + 1) * sizeof *s->rows);
    FB_ASSERT(s->rows != NULL);
    memset(&s->rows[s->count], 0, sizeof s->rows[0]);
    fbCsv_Split(line, &s->rows[s->count++]);
  }
  free(line);
  fclose(f);
  return s->header.count > 0;
}

static void free_summary(summary *s)
{
  fbTextList_Free(&s->header);
  for (long k = 0; k < s->count; ++k) {
    fbTextList_Free(&s->rows[k]);
  }
  free(s->rows);
}

static int column(const summary *s, const char *name)
{
  for (int k = 0; k < s->header.count; ++k) {
    if (strcmp(s->header.items[k], name) == 0) {
      return k;
    }
  }
  return -1;
}

static const char *cell(const summary *s, long row, int col)
{
  return col >= 0 && col < s->rows[row].count ? s->rows[row].items[col] : "";
}

static bool number(const char *text, double *v)
{
  char *end;
  *v = strtod(text, &end);
  return end != text && *end == '\0';
}

// A gnuplot single-quoted string: only the quote itself needs escaping, by doubling it.
static void quoted(FILE *f, const char *text)
{
  fputc('\'', f);
  for (const char *c = text; *c != '\0'; ++c) {
    if (*c == '\'') {
      fputc('\'', f);  // doubled
    }
    fputc(*c, f);
  }
  fputc('\'', f);
}

// "outcome:stuck" -> "outcome_stuck": a file name that needs no quoting anywhere.
static void file_base(const char *y, char *out, size_t len)
{
  snprintf(out, len, "%s", y);
  for (char *c = out; *c != '\0'; ++c) {
    bool plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_' ||
                 *c == '.' || *c == '-';
    *c = plain ? *c : '_';
  }
}

// The label of a row's line: the values of the grid parameters other than x ("" when there are none).
static void line_label(const fbPlan *p, const summary *s, long row, char *out, size_t len)
{
  out[0] = '\0';
  for (int a = 0; a < p->e->axis_count; ++a) {
    const char *name = p->e->axes[a].name;
    if (strcmp(name, p->e->plot_x) != 0) {
      size_t used = strlen(out);
      snprintf(out + used, len - used, "%s%s=%s", used ? ", " : "", name, cell(s, row, column(s, name)));
    }
  }
}

// What a plot shows in each row: y and its error bar, from the summary's columns.
typedef struct series {
  bool outcome;
  int mean, se, complete;  // columns (-1: absent)
} series;

// y and its error for a row; false if the row has no value to show.
static bool point(const series *c, const summary *s, long row, double *y, double *error)
{
  double n = 0;
  number(cell(s, row, c->complete), &n);
  if (c->outcome) {
    // A label no complete run had has no column: its fraction is 0 wherever there are runs.
    if (n < 1 || (c->mean >= 0 && !number(cell(s, row, c->mean), y))) {
      return false;
    }
    *y = c->mean >= 0 ? *y : 0.0;
    *error = sqrt(*y * (1.0 - *y) / n);
    return true;
  }
  if (!number(cell(s, row, c->mean), y) || isnan(*y)) {
    return false;
  }
  *error = number(cell(s, row, c->se), error) && !isnan(*error) ? *error : 0.0;
  return true;
}

// The distinct line labels of the rows, in order of first appearance; returns how many.
static int line_labels(const fbPlan *p, const summary *s, char (*labels)[512])
{
  int lines = 0;
  for (long row = 0; row < s->count; ++row) {
    char label[512];
    line_label(p, s, row, label, sizeof label);
    int line = 0;
    while (line < lines && strcmp(labels[line], label) != 0) {
      ++line;
    }
    if (line == lines) {
      snprintf(labels[lines++], sizeof labels[0], "%s", label);
    }
  }
  return lines;
}

// One line's points as a gnuplot datablock $lineN: x, y and the error bar, in grid order.
static void write_datablock(FILE *f, const fbPlan *p, const summary *s, const series *c, int n, const char *label)
{
  int x = column(s, p->e->plot_x);
  fprintf(f, "$line%d << EOD\n", n);
  for (long row = 0; row < s->count; ++row) {
    char row_label[512];
    double xv, y, error;
    line_label(p, s, row, row_label, sizeof row_label);
    if (strcmp(row_label, label) == 0 && number(cell(s, row, x), &xv) && point(c, s, row, &y, &error)) {
      fprintf(f, "%s %.10g %.10g\n", cell(s, row, x), y, error);
    }
  }
  fprintf(f, "EOD\n");
}

// The data of each line as a datablock, then one plot command drawing them all.
static void write_lines(FILE *f, const fbPlan *p, const summary *s, const series *c)
{
  char (*labels)[512] = calloc((size_t)s->count + 1, sizeof *labels);
  FB_ASSERT(labels != NULL);
  int lines = line_labels(p, s, labels);
  for (int line = 0; line < lines; ++line) {
    write_datablock(f, p, s, c, line + 1, labels[line]);
  }
  for (int line = 0; line < lines; ++line) {
    fprintf(f, "%s$line%d using 1:2:3 with yerrorlines lw 2 pt 7 ", line == 0 ? "plot " : ", \\\n     ",
            line + 1);
    if (labels[line][0] != '\0') {
      fputs("title ", f);
      quoted(f, labels[line]);
    } else {
      fputs("notitle", f);
    }
  }
  fputc('\n', f);
  free(labels);
}

static bool write_script(const char *path, const char *base, const char *y, const fbPlan *p, const summary *s,
                         const series *c)
{
  char why[256];
  FILE *f = fbFilePath_OpenOutput(path, "w", why, sizeof why);
  if (f == NULL) {
    return false;
  }
  fprintf(f, "# %s.gp — %s against %s, from summary.csv of the sweep %s:\n", base, y, p->e->plot_x,
          p->e->source ? p->e->source : "given on the command line");
  fprintf(f, "# %s over each grid point's complete runs, with one standard error.\n",
          c->outcome ? "the fraction with this outcome" : "the mean");
  fprintf(f, "# Written by flockbox sweep; edit it and redraw, in this folder, with: gnuplot %s.gp\n", base);
  // noenhanced: names such as mean_speed are shown as written, not with a subscript.
  fprintf(f, "set terminal pngcairo size 960,640 noenhanced\nset output '%s.png'\n", base);
  fputs("set grid\nset key below\nset offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n", f);
  fputs("set xlabel ", f);
  quoted(f, p->e->plot_x);
  char ylabel[300];
  snprintf(ylabel, sizeof ylabel, c->outcome ? "%s (fraction of complete runs)" : "%s", c->outcome ? y + 8 : y);
  fputs("\nset ylabel ", f);
  quoted(f, ylabel);
  if (c->outcome) {
    fputs("\nset yrange [0:1]", f);
  }
  fputc('\n', f);
  write_lines(f, p, s, c);
  return fclose(f) == 0;
}

// Runs gnuplot on the script in the output folder; true if the picture is there and not empty.
static bool draw(const char *gnuplot, const fbPlan *p, const char *base)
{
  char script[600], png[4200], log[4200], err[512];
  snprintf(script, sizeof script, "%s.gp", base);
  snprintf(png, sizeof png, "%s/%s.png", p->e->out, base);
  snprintf(log, sizeof log, "%s/%s.gp.log", p->e->out, base);
  unlink(png);
  char *argv[] = {(char *)gnuplot, script, NULL};
  pid_t pid = fbProcess_Start(argv, log, p->e->out, err, sizeof err);
  struct stat st;
  bool ok = pid > 0 && fbProcess_Wait(pid) == 0 && stat(png, &st) == 0 && st.st_size > 0;
  if (ok) {
    unlink(log);
  } else {
    fprintf(stderr, "sweep: gnuplot could not draw %s (see %s)\n", png, log);
  }
  return ok;
}

// The summary's columns for y; false (with a message) if it is not a measure of these runs.
static bool find_series(const summary *s, const char *y, series *c)
{
  char name[300];
  c->outcome = strncmp(y, "outcome:", 8) == 0;
  c->complete = column(s, "complete");
  snprintf(name, sizeof name, c->outcome ? "outcome_%s" : "%s_mean", c->outcome ? y + 8 : y);
  c->mean = column(s, name);
  snprintf(name, sizeof name, "%s_se", y);
  c->se = c->outcome ? -1 : column(s, name);
  if (!c->outcome && c->mean < 0) {
    fprintf(stderr, "sweep: plot: '%s' is not a numeric measure of these runs (no %s_mean in summary.csv)\n", y, y);
    return false;
  }
  return true;
}

int fbSweepPlot_Draw(const fbPlan *p)
{
  const fbExperiment *e = p->e;
  char path[4200], gnuplot[4096];
  snprintf(path, sizeof path, "%s/summary.csv", e->out);
  summary s;
  if (e->plot_x == NULL || !read_summary(path, &s)) {
    return 0;
  }
  int x = column(&s, e->plot_x);
  for (long row = 0; row < s.count; ++row) {
    double v;
    if (!number(cell(&s, row, x), &v)) {
      fprintf(stderr, "sweep: plot: %s has a value that is not a number ('%s'): no plot\n", e->plot_x,
              cell(&s, row, x));
      free_summary(&s);
      return 0;
    }
  }
  bool have_gnuplot = fbProcess_Find("gnuplot", gnuplot, sizeof gnuplot);
  int drawn = 0;
  for (int k = 0; k < e->plot_y.count; ++k) {
    const char *y = e->plot_y.items[k];
    char base[256];
    series c;
    file_base(y, base, sizeof base);
    snprintf(path, sizeof path, "%s/%s.gp", e->out, base);
    if (!find_series(&s, y, &c)) {
      continue;
    }
    if (!write_script(path, base, y, p, &s, &c)) {
      fprintf(stderr, "sweep: %s: cannot be written\n", path);
    } else if (have_gnuplot) {
      drawn += draw(gnuplot, p, base);
    }
  }
  if (!have_gnuplot) {
    fprintf(stderr, "sweep: gnuplot is not installed: plot scripts written to %s/*.gp, no pictures\n", e->out);
  }
  free_summary(&s);
  return drawn;
}
