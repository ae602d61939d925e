// fit.c — flockbox fit: the command line, the method's run over the candidates, and the report.
#define _DEFAULT_SOURCE  // flock
#include "fit.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fit_abc.h"
#include "fit_cmaes.h"
#include "fit_nelder_mead.h"
#include "fit_output.h"
#include "fit_runs.h"
#include "fit_spec.h"
#include "paths.h"
#include "plan.h"
#include "process.h"
#include "sweep_pool.h"

#define MAX_OVERRIDES 256

void fbFit_PrintHelp(FILE *out)
{
  fputs("usage: flockbox fit EXPERIMENT.lua [options]\n"
        "\n"
        "Finds the parameters that make a scenario's statistic match a target. The experiment file is a\n"
        "sweep's (scenario, steps, every, sets, seeds, out) with a `fit` table:\n"
        "  fit = { params = { { \"NAME\", low, high }, { \"NAME2\", low, high, log = true } },\n"
        "          target = { \"COLUMN\", value = V, from = STEP, to = STEP },  -- a telemetry column's\n"
        "                                                  -- mean over the window (default: 2nd half)\n"
        "          method = \"nelder_mead\" | \"cmaes\" | \"abc_rejection\" | \"abc_smc\",\n"
        "          budget = RUNS, seed = S, particles = N, quantile = Q }\n"
        "Every candidate runs every seed (the same seeds for all: common random numbers); the objective\n"
        "is the squared error averaged over them. Writes OUT/best.csv, OUT/trace.csv, for ABC\n"
        "OUT/posterior.csv and OUT/intervals.csv, and plots; each candidate's runs are a sweep in\n"
        "OUT/evals/<k>. Run it again to resume: the runs made are kept.\n"
        "\n"
        "  --jobs N            runs at once (default: one per core)\n"
        "  --quiet             no line per candidate\n"
        "  --method M          replaces fit.method; --budget RUNS replaces fit.budget\n"
        "  --list              print the next batch's pending runs as commands (for GNU parallel) and\n"
        "                      make none; nothing once the fit is done (it then reports on stderr):\n"
        "                      while flockbox fit F --list >jobs && [ -s jobs ]; do parallel <jobs; done\n"
        "  --scenario S, --steps N, --every K, --set NAME=VALUE, --seeds A-B, --seed-set NAME, --out DIR\n"
        "                      as for flockbox sweep: override (or add to) the file\n"
        "\n"
        "Exit status: 0 done; 2 bad input (the message names the file and the field); 3 a run failed;\n"
        "1 an output could not be written; 130 interrupted (run the same command again to resume).\n",
        out);
}

typedef struct options {
  const char *file;
  int jobs;
  bool quiet;
  bool list;            // --list: the pending runs' commands, for GNU parallel
  const char *method;   // --method: replaces fit.method
  long budget;          // --budget: replaces fit.budget (0: the file's)
  const char *overrides[MAX_OVERRIDES];
  int override_count;
} options;

static int parse_options(options *o, int argc, char **argv, char *err, size_t errlen)
{
  memset(o, 0, sizeof *o);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  o->jobs = cores > 0 ? (int)cores : 1;
  static const char *const passed[] = {"--scenario", "--steps", "--every", "--set", "--seeds", "--seed-set", "--out"};
  for (int k = 1; k < argc; ++k) {
    const char *a = argv[k];
    bool is_passed = false;
    for (size_t i = 0; i < sizeof passed / sizeof passed[0]; ++i) {
      is_passed = is_passed || strcmp(a, passed[i]) == 0;
    }
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fbFit_PrintHelp(stdout);
      return 1;
    } else if (strcmp(a, "--quiet") == 0) {
      o->quiet = true;
    } else if (strcmp(a, "--list") == 0) {
      o->list = true;
    } else if (strcmp(a, "--jobs") == 0 && k + 1 < argc) {
      char *end;
      long v = strtol(argv[++k], &end, 10);
      if (*end != '\0' || end == argv[k] || v < 1 || v > 1024) {
        snprintf(err, errlen, "--jobs %s: expected a whole number from 1 to 1024", argv[k]);
        return 2;
      }
      o->jobs = (int)v;
    } else if (strcmp(a, "--budget") == 0 && k + 1 < argc) {
      char *end;
      o->budget = strtol(argv[++k], &end, 10);
      if (*end != '\0' || end == argv[k] || o->budget < 1 || o->budget > 10000000) {
        snprintf(err, errlen, "--budget %s: expected a whole number of runs from 1 to 10000000", argv[k]);
        return 2;
      }
    } else if (strcmp(a, "--method") == 0 && k + 1 < argc) {
      o->method = argv[++k];
    } else if (is_passed && k + 1 < argc && o->override_count + 2 <= MAX_OVERRIDES) {
      o->overrides[o->override_count++] = a;
      o->overrides[o->override_count++] = argv[++k];
    } else if (strncmp(a, "--", 2) == 0) {
      snprintf(err, errlen, "%s: unknown option or missing value (see flockbox fit --help)", a);
      return 2;
    } else if (o->file == NULL) {
      o->file = a;
    } else {
      snprintf(err, errlen, "%s: only one experiment file may be given (already have %s)", a, o->file);
      return 2;
    }
  }
  if (o->file == NULL) {
    snprintf(err, errlen, "no experiment given (flockbox fit EXPERIMENT.lua, or see flockbox fit --help)");
    return 2;
  }
  return 0;
}

// The experiment and its fit table, checked as a whole; false with the message in err.
static bool load(fbExperiment *e, fbFitSpec *s, const options *o, char *err, size_t errlen)
{
  fbExperiment_Init(e);
  e->accepts_fit = true;
  if (!fbExperiment_Read(e, o->file, err, errlen)) {
    return false;
  }
  for (int k = 0; k < o->override_count; k += 2) {
    if (fbExperiment_Option(e, o->overrides[k], o->overrides[k + 1], err, errlen) != 0) {
      return false;
    }
  }
  if (e->axis_count > 0) {
    snprintf(err, errlen, "%s: grid: a fit has no grid: its parameters are fit.params", o->file);
    return false;
  }
  if (!fbExperiment_Check(e, err, errlen) || !fbFitSpec_Read(s, e, err, errlen)) {
    return false;
  }
  if (o->method != NULL && !fbFitMethod_Find(o->method, &s->method)) {
    snprintf(err, errlen, "--method %s: expected one of nelder_mead, cmaes, abc_rejection, abc_smc", o->method);
    return false;
  }
  s->budget = o->budget > 0 ? o->budget : s->budget;
  long seeds = (long)(e->seed_last - e->seed_first + 1), least = s->param_count + 1;
  least = s->method == FB_FIT_ABC_REJECTION || s->method == FB_FIT_ABC_SMC ? s->particles : least;
  if (s->budget / seeds < least) {
    snprintf(err, errlen, "%s: fit.budget: %ld runs make %ld candidates of %ld seeds; %s needs at least %ld", o->file,
             s->budget, s->budget / seeds, seeds, fbFitMethod_Name(s->method), least);
    return false;
  }
  return true;
}

// One fit at a time in a folder: the lock goes with the process.
static bool lock_folder(const char *out, char *err, size_t errlen)
{
  char path[4200], why[256];
  snprintf(path, sizeof path, "%s/fit.lock", out);
  if (!fbFilePath_CheckOutput(path, why, sizeof why)) {
    snprintf(err, errlen, "%.1500s: cannot be made: %s", path, why);
    return false;
  }
  char folder[4200];
  snprintf(folder, sizeof folder, "%s", out);
  for (char *c = folder + 1; *c != '\0'; ++c) {  // mkdir -p: errors show at the open below
    if (*c == '/') {
      *c = '\0';
      mkdir(folder, 0777);
      *c = '/';
    }
  }
  mkdir(folder, 0777);
  int fd = open(path, O_RDWR | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0644);
  if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0) {
    return true;
  }
  snprintf(err, errlen, "%s: %s", out, fd < 0 ? strerror(errno) : "another fit is running in this folder");
  return false;
}

static long best_index(const fbFitRuns *r)
{
  long best = 0;
  for (long k = 1; k < r->count; ++k) {
    if (r->evals[k].objective < r->evals[best].objective) {
      best = k;
    }
  }
  return best;
}

// The method over the candidates; the posterior (ABC) is left in post.
static void run_method(const fbFitSpec *s, fbFitRuns *runs, long candidates, fbFitPosterior *post)
{
  fbFitProblem p = {s->param_count, fbFitRuns_Objective, runs, candidates, (uint64_t)s->seed};
  fbFitAbcOptions abc = {s->particles, s->quantile > 0 ? s->quantile : s->method == FB_FIT_ABC_REJECTION ? 0.1 : 0.5};
  fbFitResult result;
  memset(post, 0, sizeof *post);
  switch (s->method) {
  case FB_FIT_NELDER_MEAD: fbFitNelderMead_Minimise(&p, &result); break;
  case FB_FIT_CMAES: fbFitCmaes_Minimise(&p, &result); break;
  case FB_FIT_ABC_REJECTION: fbFitAbc_Rejection(&p, &abc, &result, post); break;
  case FB_FIT_ABC_SMC: fbFitAbc_Smc(&p, &abc, &result, post); break;
  }
}

static void print_report(FILE *out, const fbFitRuns *r, long best, const fbFitPosterior *post)
{
  const fbFitSpec *s = r->s;
  for (int i = 0; post->count > 0 && i < s->param_count; ++i) {
    const fbFitParam *p = &s->params[i];
    fprintf(out, "fit: %s 90%% credible interval [%.6g, %.6g], median %.6g (%d particles, %d generation%s, tolerance %.4g)\n",
           p->name, fbFitParam_Value(p, fbFitPosterior_Quantile(post, i, 0.05)),
           fbFitParam_Value(p, fbFitPosterior_Quantile(post, i, 0.95)),
           fbFitParam_Value(p, fbFitPosterior_Quantile(post, i, 0.5)), post->count, post->generations,
           post->generations == 1 ? "" : "s", post->tolerance);
  }
  fprintf(out, "fit: %ld candidates x %lld seeds = %ld runs in %s\n", r->count, r->e->seed_last - r->e->seed_first + 1,
         r->count * (long)(r->e->seed_last - r->e->seed_first + 1), r->e->out);
  fprintf(out, "fit: best");
  for (int i = 0; i < s->param_count; ++i) {
    fprintf(out, " %s=%.6g", s->params[i].name, r->evals[best].value[i]);
  }
  fprintf(out, " objective %.6g\n", r->evals[best].objective);
}

static int fit(const fbExperiment *e, const fbFitSpec *s, const options *o, const char *self)
{
  char err[2048];
  if (!lock_folder(e->out, err, sizeof err)) {
    fprintf(stderr, "fit: %s\n", err);
    return 2;
  }
  fbFitRuns runs = {.e = e, .s = s, .self = self, .jobs = o->jobs, .quiet = o->quiet, .list_only = o->list};
  fbFitPosterior post;
  long seeds = (long)(e->seed_last - e->seed_first + 1);
  run_method(s, &runs, s->budget / seeds, &post);
  int status = runs.status;
  if (status == 4) {  // --list: the commands are on stdout
    fprintf(stderr, "fit: %s\n", runs.err);
    status = 0;
  } else if (status != 0) {
    fprintf(stderr, "fit: %s\n", runs.err);
  } else if (runs.count == 0) {
    fprintf(stderr, "fit: no candidate was evaluated\n");
    status = 3;
  } else {
    long best = best_index(&runs);
    bool written = fbFitOutput_Trace(&runs, best, err, sizeof err) &&
                   (post.count == 0 || fbFitOutput_Posterior(&runs, &post, err, sizeof err));
    if (!written) {
      fprintf(stderr, "fit: %s\n", err);
      status = 1;
    } else {
      fbFitOutput_Plots(&runs, post.count > 0);
      print_report(o->list ? stderr : stdout, &runs, best, &post);
    }
  }
  fbFitPosterior_Free(&post);
  fbFitRuns_Free(&runs);
  return status;
}

int fbFit_Main(int argc, char **argv)
{
  fbSweepPool_BlockSignals();  // before the Lua host starts its watchdog thread
  options o;
  char err[2048], self[4096];
  int status = parse_options(&o, argc, argv, err, sizeof err);
  if (status != 0) {
    if (status == 2) {
      fprintf(stderr, "fit: %s\n", err);
    }
    return status == 1 ? 0 : status;
  }
  fbExperiment e;
  fbFitSpec s;
  fbSweepPool_CatchStops(true);
  bool loaded = load(&e, &s, &o, err, sizeof err);
  if (fbSweepPool_CatchStops(false)) {
    snprintf(err, sizeof err, "interrupted while reading the experiment");
    status = 130;
  } else if (!loaded) {
    status = 2;
  } else if (!fbProcess_Self(self, sizeof self)) {
    snprintf(err, sizeof err, "cannot find the flockbox executable (/proc/self/exe)");
    status = 1;
  }
  if (status != 0) {
    fprintf(stderr, "fit: %s\n", err);
  } else {
    status = fit(&e, &s, &o, self);
  }
  fbExperiment_Free(&e);
  return status;
}
