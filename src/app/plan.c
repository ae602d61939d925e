// plan.c — numbering a sweep's runs, their command lines, and the plan file (OUT/plan.txt) that refuses to mix experiments.
#define _POSIX_C_SOURCE 200809L
#include "plan.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fb.h"
#include "paths.h"
#include "sha256.h"

/*
 * Numbering. Run k (1..runs) is index i = k - 1; its seed is seed_first + i / points and its grid
 * point i % points: the seeds are the outer loop, the grid points the inner one. The grid points
 * are in the order the grid gives, the last parameter varying fastest (an odometer, read from the
 * right). Seeds outermost has two uses: a sweep stopped half-way has results for every grid point,
 * and a sweep extended to more seeds (1-10, then 1-300) keeps the numbers of the runs it has made,
 * so they need not be made again.
 */
void fbPlan_Make(fbPlan *p, const fbExperiment *e, const char *self)
{
  p->e = e;
  p->points = 1;
  for (int a = 0; a < e->axis_count; ++a) {
    p->points *= e->design.method != 0 && a > 0 ? 1 : e->axes[a].values.count;  // a design: zipped
  }
  p->seeds = (long)(e->seed_last - e->seed_first + 1);
  p->runs = p->points * p->seeds;
  snprintf(p->self, sizeof p->self, "%s", self);
}

long fbPlan_PointOf(const fbPlan *p, long run) { return (run - 1) % p->points; }

long long fbPlan_SeedOf(const fbPlan *p, long run) { return p->e->seed_first + (run - 1) / p->points; }

const char *fbPlan_Value(const fbPlan *p, long point, int axis)
{
  const fbExperiment *e = p->e;
  for (int a = e->axis_count - 1; a > axis && e->design.method == 0; --a) {
    point /= e->axes[a].values.count;
  }
  return e->axes[axis].values.items[point % e->axes[axis].values.count];
}

void fbPlan_RunFile(const fbPlan *p, long run, const char *suffix, char *out, size_t len)
{
  snprintf(out, len, "%s/runs/%ld%s", p->e->out, run, suffix);
}

// ---- command lines ------------------------------------------------------------------------------

static void add_arg(char ***argv, int *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add_arg(char ***argv, int *n, const char *fmt, ...)
{
  char *text = NULL;
  va_list args;
  va_start(args, fmt);
  int len = vsnprintf(NULL, 0, fmt, args);
  va_end(args);
  text = malloc((size_t)len + 1);
  va_start(args, fmt);
  vsnprintf(text, (size_t)len + 1, fmt, args);
  va_end(args);
  *argv = realloc(*argv, (size_t)(*n + 2) * sizeof **argv);
  FB_ASSERT(text != NULL && *argv != NULL);
  (*argv)[(*n)++] = text;
  (*argv)[*n] = NULL;
}

/*
 * One headless run on one thread (the sweep's parallelism is one process per run, so threads would
 * only compete for the same cores). The --set values go in the order sets, grid, seed_sets: the
 * engine applies them in order, so a grid value wins over a `sets` entry of the same name.
 */
static char **args(const fbPlan *p, const int *value, long long seed, long steps, const char *csv)
{
  const fbExperiment *e = p->e;
  char **argv = NULL;
  int n = 0;
  add_arg(&argv, &n, "%s", p->self);
  add_arg(&argv, &n, "--headless");
  add_arg(&argv, &n, "--quiet");
  add_arg(&argv, &n, "--threads");
  add_arg(&argv, &n, "1");
  add_arg(&argv, &n, "--seed");
  add_arg(&argv, &n, "%lld", seed);
  add_arg(&argv, &n, "--steps");
  add_arg(&argv, &n, "%ld", steps);
  if (csv != NULL) {
    add_arg(&argv, &n, "--every");
    add_arg(&argv, &n, "%ld", e->every > 0 ? e->every : e->steps);
    add_arg(&argv, &n, "--csv");
    add_arg(&argv, &n, "%s", csv);
  }
  for (int k = 0; k < e->sets.count; ++k) {
    add_arg(&argv, &n, "--set");
    add_arg(&argv, &n, "%s", e->sets.items[k]);
  }
  for (int a = 0; a < e->axis_count; ++a) {
    for (const char *name = e->axes[a].name; value[a] >= 0; name += strcspn(name, ",") + 1) {
      add_arg(&argv, &n, "--set");  // the one value, to each name the axis varies together
      add_arg(&argv, &n, "%.*s=%s", (int)strcspn(name, ","), name, e->axes[a].values.items[value[a]]);
      if (name[strcspn(name, ",")] == '\0') {
        break;
      }
    }
  }
  for (int k = 0; k < e->seed_sets.count; ++k) {
    add_arg(&argv, &n, "--set");
    add_arg(&argv, &n, "%s=%lld", e->seed_sets.items[k], seed);
  }
  add_arg(&argv, &n, "%s", e->scenario);
  return argv;
}

char **fbPlan_RunArgs(const fbPlan *p, long run)
{
  int value[FB_SWEEP_MAX_AXES];
  long point = fbPlan_PointOf(p, run);
  for (int a = p->e->axis_count - 1; a >= 0; --a) {
    value[a] = (int)(point % p->e->axes[a].values.count);
    point /= p->e->design.method != 0 ? 1 : p->e->axes[a].values.count;  // a design's axes are zipped
  }
  char csv[4096];
  fbPlan_RunFile(p, run, ".csv", csv, sizeof csv);
  return args(p, value, fbPlan_SeedOf(p, run), p->e->steps, csv);
}

char **fbPlan_CheckArgs(const fbPlan *p, const int *value, long long seed) { return args(p, value, seed, 0, NULL); }

void fbPlan_FreeArgs(char **argv)
{
  for (char **a = argv; a != NULL && *a != NULL; ++a) {
    free(*a);
  }
  free(argv);
}

// ---- the plan file ------------------------------------------------------------------------------

/*
 * The plan as text, one fact per line, everything that decides what each run number does: the
 * scenario (its path, and its content by SHA-256 as the runs' metadata gives it), steps, CSV rows, --set values, the grid in order and the seeds. The
 * output folder, the plot and the job count are not in it: they change no run.
 */
static char *plan_text(const fbPlan *p)
{
  const fbExperiment *e = p->e;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  FB_ASSERT(f != NULL);
  char hash[65];
  fbSha256_File(e->scenario, hash);  // an edited scenario is another experiment
  fprintf(f, "# flockbox sweep plan: what each run number of this folder does (see flockbox sweep --help)\n");
  fprintf(f, "scenario %s\nscenario_sha256 %s\n", e->scenario, hash);
  fprintf(f, "steps %ld\nevery %ld\n", e->steps, e->every > 0 ? e->every : e->steps);
  for (int k = 0; k < e->sets.count; ++k) {
    fprintf(f, "set %s\n", e->sets.items[k]);
  }
  for (int a = 0; a < e->axis_count; ++a) {
    fprintf(f, "grid %s\n", e->axes[a].name);
    for (int v = 0; v < e->axes[a].values.count; ++v) {
      fprintf(f, "value %s\n", e->axes[a].values.items[v]);
    }
  }
  if (e->design.method != 0) {
    fprintf(f, "design zipped: point k takes value k of every parameter\n");
  }
  for (int k = 0; k < e->seed_sets.count; ++k) {
    fprintf(f, "seed_set %s\n", e->seed_sets.items[k]);
  }
  fprintf(f, "seeds %lld-%lld\n", e->seed_first, e->seed_last);
  fclose(f);
  return text;
}

static bool make_folders(const char *path)
{
  char partial[4096];
  size_t len = strlen(path);
  if (len >= sizeof partial) {
    errno = ENAMETOOLONG;
    return false;
  }
  for (size_t k = 1; k <= len; ++k) {
    if (path[k] == '/' || path[k] == '\0') {
      snprintf(partial, sizeof partial, "%.*s", (int)k, path);
      if (mkdir(partial, 0777) != 0 && errno != EEXIST) {
        return false;
      }
    }
  }
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? true : (errno = ENOTDIR, false);
}

static char *read_all(const char *path)
{
  char why[256];
  long size;
  FILE *f = fbFilePath_OpenRegular(path, 64L << 20, &size, why, sizeof why);
  if (f == NULL) {
    return NULL;
  }
  char *text = malloc((size_t)size + 1);
  size_t got = text ? fread(text, 1, (size_t)size, f) : 0;
  fclose(f);
  if (text != NULL) {
    text[got] = '\0';
  }
  return text;
}

// Writes text to path through a temporary file: readers see the old file or the whole new one.
// With exclusive, fails (EEXIST) if path already exists (link, unlike rename, never replaces).
// Something at path that is not a regular file (a folder, a FIFO, a device) is refused, never
// replaced; false with the reason in why.
static bool write_atomically(const char *path, const char *text, bool exclusive, char *why, size_t len)
{
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
  if (!fbFilePath_CheckOutput(path, why, len)) {
    errno = 0;
    return false;
  }
  FILE *f = fbFilePath_OpenOutput(tmp, "w", why, len);
  if (f == NULL) {
    errno = 0;
    return false;
  }
  bool ok = fputs(text, f) >= 0;
  ok = (fclose(f) == 0) && ok;
  if (ok && exclusive) {
    ok = link(tmp, path) == 0;
  } else if (ok) {  // checked again: a FIFO or a device put there meanwhile is not renamed over
    ok = fbFilePath_CheckOutput(path, why, len) && rename(tmp, path) == 0;
  }
  int saved = errno;
  if (!ok && saved != 0) {
    snprintf(why, len, "%s", strerror(saved));
  }
  unlink(tmp);
  errno = saved;
  return ok;
}

// The first line where a and b differ, each copied into its buffer ("" past the end).
static void first_difference(const char *a, const char *b, char *line_a, char *line_b, size_t len)
{
  while (*a != '\0' || *b != '\0') {
    size_t na = strcspn(a, "\n"), nb = strcspn(b, "\n");
    if (na != nb || strncmp(a, b, na) != 0) {
      snprintf(line_a, len, "%.*s", (int)na, a);
      snprintf(line_b, len, "%.*s", (int)nb, b);
      return;
    }
    a += na + (a[na] == '\n');
    b += nb + (b[nb] == '\n');
  }
  line_a[0] = line_b[0] = '\0';
}

// True when the two plans differ in the last seed only ("seeds 1-10" against "seeds 1-300").
static bool only_last_seed_differs(const char *a, const char *b)
{
  const char *sa = strstr(a, "\nseeds "), *sb = strstr(b, "\nseeds ");
  if (sa == NULL || sb == NULL || sa - a != sb - b || strncmp(a, b, (size_t)(sa - a)) != 0) {
    return false;
  }
  size_t first = strcspn(sa, "-");
  return strncmp(sa, sb, first + 1) == 0;
}

static bool refuse(const char *path, const fbPlan *p, const char *old, const char *now, char *err, size_t errlen)
{
  char was[512], is[512];
  first_difference(old, now, was, is, sizeof was);
  if (strncmp(was, "scenario_sha256", 15) == 0) {
    snprintf(err, errlen,
             "%s: the scenario %s has changed since the runs in this folder were made; give another --out, or "
             "delete the folder to start again",
             path, p->e->scenario);
  } else {
    snprintf(err, errlen,
             "%s: this folder holds the runs of another plan: it has '%s' where this sweep has '%s'; give another "
             "--out, or delete the folder to start again",
             path, was, is);
  }
  return false;
}

// 0 when there is no plan file or it is this plan (or differs in the last seed only, when allowed),
// 2 with the message in err when it is another plan.
static int compare(const fbPlan *p, const char *path, const char *now, bool may_change_seeds, char *err, size_t errlen)
{
  char *old = read_all(path);
  int status = 0;
  if (old != NULL && strcmp(old, now) != 0 && !(may_change_seeds && only_last_seed_differs(old, now))) {
    refuse(path, p, old, now, err, errlen);
    status = 2;
  }
  free(old);
  return status;
}

int fbPlan_Compare(const fbPlan *p, bool may_change_seeds, char *err, size_t errlen)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/plan.txt", p->e->out);
  char *now = plan_text(p);
  int status = compare(p, path, now, may_change_seeds, err, errlen);
  free(now);
  return status;
}

int fbPlan_Claim(const fbPlan *p, bool may_change_seeds, char *err, size_t errlen)
{
  char runs[4096], path[4096];
  snprintf(runs, sizeof runs, "%s/runs", p->e->out);
  snprintf(path, sizeof path, "%s/plan.txt", p->e->out);
  if (!make_folders(runs)) {
    snprintf(err, errlen, "%s: cannot create the folder: %s", runs, strerror(errno));
    return 1;
  }
  char *now = plan_text(p);
  int status = 0;
  // Two runs started at once on a fresh folder (GNU parallel, a job array) both try to create it:
  // one link wins, the other finds the winner's file and compares.
  char why[256] = "";
  if (!write_atomically(path, now, true, why, sizeof why)) {
    char *old = errno == EEXIST ? read_all(path) : NULL;
    if (old == NULL) {
      snprintf(err, errlen, "%s: cannot write or read the plan: %s", path, why);
      status = fbFilePath_CheckOutput(path, why, sizeof why) ? 1 : 2;  // something not a file there: bad input
    } else if ((status = compare(p, path, now, may_change_seeds, err, errlen)) == 0 && strcmp(old, now) != 0 &&
               !write_atomically(path, now, false, why, sizeof why)) {
      snprintf(err, errlen, "%s: cannot rewrite the plan: %s", path, why);
      status = 1;
    }
    free(old);
  }
  free(now);
  return status;
}

// A word for a POSIX shell: as it is when it is plain, otherwise in single quotes.
void fbPlan_ShellWord(FILE *f, const char *w)
{
  static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%";
  if (w[0] != '\0' && strspn(w, plain) == strlen(w)) {
    fputs(w, f);
    return;
  }
  fputc('\'', f);
  for (const char *c = w; *c != '\0'; ++c) {
    if (*c == '\'') {
      fputs("'\\''", f);  // close the quotes, an escaped quote, reopen
    } else {
      fputc(*c, f);
    }
  }
  fputc('\'', f);
}
