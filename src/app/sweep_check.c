// sweep_check.c — loading the scenario with every grid value before a sweep, so that a refused value is reported once, not by every run.
#define _POSIX_C_SOURCE 200809L
#include "sweep_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paths.h"
#include "process.h"

// The first line of a file, without flockbox's "flockbox: " prefix.
static void first_line(const char *path, char *out, size_t len)
{
  out[0] = '\0';
  char why[256];
  FILE *f = fbFilePath_OpenRegular(path, FB_MAX_TABLE_BYTES, NULL, why, sizeof why);
  if (f == NULL) {
    return;
  }
  if (fgets(out, (int)len, f) != NULL) {
    out[strcspn(out, "\n")] = '\0';
    if (strncmp(out, "flockbox: ", 10) == 0) {
      memmove(out, out + 10, strlen(out + 10) + 1);
    }
  }
  fclose(f);
}

// Loads the scenario with these values and this seed, making no step; 0, or its exit status with
// its first message line in why. Its output goes to a temporary file: the output folder may not
// exist yet, and is not made for an experiment the scenario refuses.
static int check_once(const fbPlan *p, const int *value, long long seed, char *why, size_t len)
{
  const char *tmpdir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char log[4200];
  snprintf(log, sizeof log, "%s/flockbox-sweep-check-XXXXXX", tmpdir);
  int fd = mkstemp(log);
  if (fd < 0) {
    snprintf(why, len, "cannot create a temporary file in %s", tmpdir);
    return 1;
  }
  close(fd);
  char **argv = fbPlan_CheckArgs(p, value, seed);
  pid_t pid = fbProcess_Start(argv, log, NULL, why, len);
  fbPlan_FreeArgs(argv);
  int status = pid > 0 ? fbProcess_Wait(pid) : 1;
  if (pid > 0) {
    first_line(log, why, len);
  }
  unlink(log);
  return status;
}

// The message for grid parameter a refused at value[a]: the whole entry when its first value
// (or its name) is refused, the value itself when an earlier value of it passed.
static void blame_axis(const fbExperiment *e, int a, int value, const char *why, char *err, size_t errlen)
{
  const fbAxis *axis = &e->axes[a];
  const char *v = axis->values.items[value];
  if (axis->from_option) {
    snprintf(err, errlen, "--grid %s=%s: the scenario refuses it: %s", axis->name, v, why);
  } else if (value == 0) {
    snprintf(err, errlen, "%s: grid[%d]: the scenario refuses %s=%s: %s", e->source, a + 1, axis->name, v, why);
  } else {
    snprintf(err, errlen, "%s: grid[%d][2][%d]: the scenario refuses %s=%s: %s", e->source, a + 1, value + 1,
             axis->name, v, why);
  }
}

// A refused entry of `sets` or `seed_sets`, found by the "--set NAME=VALUE:" the engine names.
static bool blame_set(const fbExperiment *e, long long seed, const char *why, char *err, size_t errlen)
{
  char needle[600];
  for (int k = 0; k < e->sets.count; ++k) {
    snprintf(needle, sizeof needle, "--set %s:", e->sets.items[k]);
    if (strstr(why, needle) != NULL) {
      if (k < e->file_sets) {
        snprintf(err, errlen, "%s: sets[%d]: the scenario refuses %s: %s", e->source, k + 1, e->sets.items[k], why);
      } else {
        snprintf(err, errlen, "--set %s: the scenario refuses it: %s", e->sets.items[k], why);
      }
      return true;
    }
  }
  for (int k = 0; k < e->seed_sets.count; ++k) {
    snprintf(needle, sizeof needle, "--set %s=%lld:", e->seed_sets.items[k], seed);
    if (strstr(why, needle) != NULL) {
      if (k < e->file_seed_sets) {
        snprintf(err, errlen, "%s: seed_sets[%d]: the scenario refuses %s=%lld (the seed): %s", e->source, k + 1,
                 e->seed_sets.items[k], seed, why);
      } else {
        snprintf(err, errlen, "--seed-set %s: the scenario refuses %s=%lld (the seed): %s", e->seed_sets.items[k],
                 e->seed_sets.items[k], seed, why);
      }
      return true;
    }
  }
  return false;
}

/*
 * Which entry of the experiment a refusal of the first load (every parameter at its first value)
 * is about. The engine names most refused values by their --set, but not all (a rule parameter the
 * rule does not have is named by the rule), so the loads say it instead: without any grid
 * parameter, then with each one alone. Only runs when something is wrong.
 */
static void blame_first(const fbPlan *p, const char *why, char *err, size_t errlen)
{
  const fbExperiment *e = p->e;
  if (blame_set(e, e->seed_first, why, err, errlen)) {
    return;
  }
  int value[FB_SWEEP_MAX_AXES];
  char again[1024];
  for (int a = 0; a < e->axis_count; ++a) {
    value[a] = -1;
  }
  bool without_grid = e->axis_count > 0 && check_once(p, value, e->seed_first, again, sizeof again) == 0;
  for (int a = 0; without_grid && a < e->axis_count; ++a) {
    value[a] = 0;
    if (check_once(p, value, e->seed_first, again, sizeof again) != 0) {
      blame_axis(e, a, 0, why, err, errlen);
      return;
    }
    value[a] = -1;
  }
  snprintf(err, errlen, "%s%sthe scenario refuses the runs: %s", e->source ? e->source : "", e->source ? ": " : "",
           why);
}

int fbSweepCheck_Runs(const fbPlan *p, char *err, size_t errlen)
{
  const fbExperiment *e = p->e;
  int value[FB_SWEEP_MAX_AXES] = {0};
  char why[1024];
  int status = check_once(p, value, e->seed_first, why, sizeof why);
  if (status != 0) {
    blame_first(p, why, err, errlen);
    return status;
  }
  for (int a = 0; a < e->axis_count; ++a) {
    for (int v = 1; v < e->axes[a].values.count; ++v) {
      value[a] = v;
      if ((status = check_once(p, value, e->seed_first, why, sizeof why)) != 0) {
        blame_axis(e, a, v, why, err, errlen);
        return status;
      }
    }
    value[a] = 0;
  }
  if (e->seed_last != e->seed_first && (status = check_once(p, value, e->seed_last, why, sizeof why)) != 0 &&
      !blame_set(e, e->seed_last, why, err, errlen)) {
    fbExperiment_Where(e, "seeds", err, errlen);
    size_t used = strlen(err);
    snprintf(err + used, errlen - used, ": the scenario refuses seed %lld: %s", e->seed_last, why);
  }
  return status;
}
