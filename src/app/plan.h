// plan.h — the runs of a sweep: their numbers, command lines and files, and the plan file that keeps an output folder to one experiment.
#ifndef FB_PLAN_H
#define FB_PLAN_H

#include <stdio.h>

#include "experiment.h"

typedef struct fbPlan {
  const fbExperiment *e;
  long points;        // grid points (1 when there is no grid)
  long seeds;
  long runs;          // points × seeds, numbered 1..runs
  char self[4096];    // the flockbox binary each run executes
} fbPlan;

void fbPlan_Make(fbPlan *p, const fbExperiment *e, const char *self);

// The grid point (0..points-1) and the seed of run 1..runs.
long fbPlan_PointOf(const fbPlan *p, long run);
long long fbPlan_SeedOf(const fbPlan *p, long run);

// The value of grid parameter `axis` at a grid point.
const char *fbPlan_Value(const fbPlan *p, long point, int axis);

// The run's file "OUT/runs/<run><suffix>": suffix ".csv", ".csv.json", ".log", ".status".
void fbPlan_RunFile(const fbPlan *p, long run, const char *suffix, char *out, size_t len);

// The command line of a run, NULL-terminated; free it with fbPlan_FreeArgs.
char **fbPlan_RunArgs(const fbPlan *p, long run);

// The command line that loads the scenario with one value per grid parameter (value[a] indexes axis
// a's values; -1 leaves the parameter out) and a seed, runs no step and writes nothing: a check
// that the runs will be accepted.
char **fbPlan_CheckArgs(const fbPlan *p, const int *value, long long seed);

void fbPlan_FreeArgs(char **argv);

// Compares this plan with OUT/plan.txt, writing nothing: 0 when there is no plan file yet or it is
// this plan, 2 (message in err) when the folder holds another plan. Only the last seed may differ,
// and only when may_change_seeds: the runs keep their numbers (see plan.c).
int fbPlan_Compare(const fbPlan *p, bool may_change_seeds, char *err, size_t errlen);

// Creates OUT/runs and claims OUT for this plan: writes OUT/plan.txt if there is none, otherwise
// compares as fbPlan_Compare and rewrites it when the seeds changed. Returns 0, 2 for a folder
// holding another plan (so the results of two experiments are never mixed), or 1 if the folder
// cannot be written (messages in err).
int fbPlan_Claim(const fbPlan *p, bool may_change_seeds, char *err, size_t errlen);

// Writes w as one word for a POSIX shell: as it is when it is plain, otherwise in single quotes
// (the command lines of --list and the Slurm script; fit's batches too).
void fbPlan_ShellWord(FILE *f, const char *w);

#endif
