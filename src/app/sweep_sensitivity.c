// sweep_sensitivity.c — flockbox sensitivity: the design's sweep, then its summary read as elementary effects or rank correlations per measure.
#include "sweep_sensitivity.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv_text.h"
#include "sweep.h"

// The experiment as the sweep read it: the file, then every option of argv that changes it.
static bool read_experiment(fbExperiment *e, int argc, char **argv)
{
  char err[2048];
  fbExperiment_Init(e);
  const char *file = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
  if (file == NULL || !fbExperiment_Read(e, file, err, sizeof err)) {
    fprintf(stderr, "sensitivity: %s\n", file == NULL ? "no experiment given (flockbox sensitivity FILE.lua)" : err);
    return false;
  }
  for (int k = 2; k + 1 < argc; ++k) {
    k += fbExperiment_Option(e, argv[k], argv[k + 1], err, sizeof err) == 0;
  }
  if (e->design.method == 0) {
    fprintf(stderr, "sensitivity: %s: no design = { method = \"morris\" or \"latin\", parameters = ... } "
                    "(docs/fitting.md, \"Sensitivity\")\n", file);
    return false;
  }
  return true;
}

// The columns <measure>_mean of summary.csv, a row per design point: values[m * points + p].
typedef struct Summary {
  fbTextList measures;
  double *values;
  long points;
} Summary;

static bool read_summary(const char *out, long points, Summary *s)
{
  char path[4200];
  snprintf(path, sizeof path, "%s/summary.csv", out);
  memset(s, 0, sizeof *s);
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    fprintf(stderr, "sensitivity: %s: no summary yet (make the runs, then flockbox sweep --collect)\n", path);
    return false;
  }
  s->points = points;
  char *line = NULL;
  size_t cap = 0;
  fbTextList header = {0}, row = {0};
  int columns[256], count = 0;
  if (fbCsv_ReadLine(f, &line, &cap)) {
    fbCsv_Split(line, &header);
  }
  for (int c = 0; c < header.count && count < 256; ++c) {
    size_t n = strlen(header.items[c]);
    if (n > 5 && strcmp(header.items[c] + n - 5, "_mean") == 0) {
      header.items[c][n - 5] = '\0';
      fbTextList_Add(&s->measures, header.items[c]);
      columns[count++] = c;
    }
  }
  s->values = malloc(sizeof *s->values * (size_t)(count * points + 1));
  long p = 0;
  for (; p < points && fbCsv_ReadLine(f, &line, &cap); ++p) {
    fbTextList_Free(&row);
    fbCsv_Split(line, &row);
    for (int m = 0; m < count; ++m) {
      s->values[m * points + p] = columns[m] < row.count ? strtod(row.items[columns[m]], NULL) : NAN;
    }
  }
  fbTextList_Free(&row);
  fbTextList_Free(&header);
  free(line);
  fclose(f);
  if (p != points) {
    fprintf(stderr, "sensitivity: %s: %ld rows for %ld design points\n", path, p, points);
    return false;
  }
  return true;
}

// One row per measure and parameter, on the terminal and in OUT/sensitivity.csv.
static int report(const fbExperiment *e, const fbDesign *d, const Summary *s)
{
  char path[4200], err[4400];
  snprintf(path, sizeof path, "%s/sensitivity.csv", e->out);
  FILE *csv = fbCsv_Create(path, err, sizeof err);
  if (csv == NULL) {
    fprintf(stderr, "sensitivity: %s\n", err);
    return 1;
  }
  const bool morris = d->kind == FB_DESIGN_MORRIS;
  fprintf(csv, morris ? "measure,parameter,mu_star,mu,sigma,effects\n" : "measure,parameter,rho,points\n");
  fbSensitivity *out = malloc(sizeof *out * (size_t)d->factors);
  for (int m = 0; m < s->measures.count; ++m) {
    fbDesign_Analyse(d, s->values + (long)m * s->points, out);
    printf("sensitivity: %s\n", s->measures.items[m]);
    for (int j = 0; j < d->factors; ++j) {
      const char *name = e->axes[j].name;
      if (morris) {
        printf("  %-32s mu* %-12.4g mu %-12.4g sigma %-12.4g (%d effects)\n", name, out[j].mu_star, out[j].mu,
               out[j].sigma, out[j].used);
        fprintf(csv, "%s,%s,%.9g,%.9g,%.9g,%d\n", s->measures.items[m], name, out[j].mu_star, out[j].mu, out[j].sigma,
                out[j].used);
      } else {
        printf("  %-32s rho %-8.3f (%d points)\n", name, out[j].rho, out[j].used);
        fprintf(csv, "%s,%s,%.9g,%d\n", s->measures.items[m], name, out[j].rho, out[j].used);
      }
    }
  }
  free(out);
  if (!fbCsv_Commit(csv, path, err, sizeof err)) {
    fprintf(stderr, "sensitivity: %s\n", err);
    return 1;
  }
  printf("sensitivity: %s (effects per unit of each parameter's range%s)\n", path,
         morris ? "; mu*: how much it matters, sigma: nonlinear or interacting" : "");
  return 0;
}

int fbSweepSensitivity_Main(int argc, char **argv)
{
  fbExperiment e;
  if (!read_experiment(&e, argc, argv)) {
    fbExperiment_Free(&e);
    return 2;
  }
  int status = fbSweep_Main(argc, argv);
  fbDesign d;
  Summary s;
  fbSweepDesign_Make(&e.design, &d);
  if (status == 0) {
    status = read_summary(e.out, d.points, &s) ? report(&e, &d, &s) : 1;
    fbTextList_Free(&s.measures);
    free(s.values);
  }
  fbDesign_Free(&d);
  fbExperiment_Free(&e);
  return status;
}
