// fit_target.c — the statistic a fit matches: a telemetry column averaged over a window of steps.
#include "fit_target.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv_text.h"

static int column_of(const fbTextList *header, const char *name)
{
  for (int k = 0; k < header->count; ++k) {
    if (strcmp(header->items[k], name) == 0) {
      return k;
    }
  }
  return -1;
}

static bool read_number(const char *text, double *v)
{
  char *end;
  errno = 0;
  *v = strtod(text, &end);
  return end != text && *end == '\0';
}

// The window's rows only: the transient before `from` is what the target leaves out.
bool fbFitTarget_WindowMean(const fbFitTarget *t, const char *run_csv, double *out, char *err, size_t errlen)
{
  FILE *f = fopen(run_csv, "r");
  if (f == NULL) {
    snprintf(err, errlen, "%s: cannot be read: %s", run_csv, strerror(errno));
    return false;
  }
  char *line = NULL;
  size_t cap = 0;
  fbTextList header = {0};
  bool ok = fbCsv_ReadLine(f, &line, &cap);
  if (ok) {
    fbCsv_Split(line, &header);
  }
  int step_col = column_of(&header, "step"), col = column_of(&header, t->column);
  double sum = 0;
  long n = 0;
  while (col >= 0 && step_col >= 0 && fbCsv_ReadLine(f, &line, &cap)) {
    fbTextList row = {0};
    fbCsv_Split(line, &row);
    double step, v;
    if (row.count == header.count && read_number(row.items[step_col], &step) && step >= (double)t->from &&
        step <= (double)t->to && read_number(row.items[col], &v) && isfinite(v)) {
      sum += v;
      ++n;
    }
    fbTextList_Free(&row);
  }
  fclose(f);
  free(line);
  fbTextList_Free(&header);
  if (col < 0 || step_col < 0) {
    snprintf(err, errlen, "%s: has no column '%s'", run_csv, col < 0 ? t->column : "step");
    return false;
  }
  if (n == 0) {
    snprintf(err, errlen, "%s: no row with a number in '%s' between steps %ld and %ld (set `every` so rows fall "
             "in the window)", run_csv, t->column, t->from, t->to);
    return false;
  }
  *out = sum / (double)n;
  return true;
}
