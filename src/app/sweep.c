// sweep.c — flockbox sweep: the command line, and its modes (make the runs here, list them, a Slurm script, one run, collect).
#define _DEFAULT_SOURCE  // flock
#include "sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "names.h"
#include "experiment.h"
#include "fb.h"
#include "paths.h"
#include "plan.h"
#include "process.h"
#include "run_record.h"
#include "sweep_check.h"
#include "sweep_collect.h"
#include "sweep_plot.h"
#include "sweep_pool.h"

#define MAX_OVERRIDES 512

void fbSweep_PrintHelp(FILE *out)
{
  fputs("usage: flockbox sweep EXPERIMENT.lua [options]\n"
        "       flockbox sweep --scenario S --grid NAME=V1,V2,... --seeds A-B --steps N --out DIR [options]\n"
        "\n"
        "Runs a scenario headless over a grid of --set values x a range of seeds, one process per run\n"
        "(each on one thread), and writes OUT/results.csv (a row per run), OUT/summary.csv (a row per\n"
        "grid point: mean, standard error and count of each measure, outcome fractions) and plots.\n"
        "Run it again to resume: finished runs are not made again.\n"
        "\n"
        "  --jobs N            runs at once (default: one per core)\n"
        "  --list              print a command per pending run (for GNU parallel), make none\n"
        "  --slurm             print a Slurm job-array script for the pending runs\n"
        "  --run K             make run K alone (if not made yet) and record its status\n"
        "  --collect           write results.csv, summary.csv and the plots from the runs made\n"
        "  --retry-failed      make the failed runs again too (not complete or incomplete ones)\n"
        "  --quiet             no progress lines\n"
        "\n"
        "These override the experiment file (or make the experiment without one):\n"
        "  --scenario S        the scenario to run\n"
        "  --steps N           steps per run (default 1000; the scenario may end a run sooner)\n"
        "  --every K           a CSV row every K steps (default: the first and the final row only)\n"
        "  --set NAME=VALUE    for every run (repeatable; added to the file's)\n"
        "  --grid NAME=V1,V2   a grid parameter and its values (repeatable; replaces the file's\n"
        "                      parameter of that name, or adds one); NAME1,NAME2=V1,V2 varies\n"
        "                      names together: each value set to both, e.g. wolf.count,sheep.count=10,20\n"
        "  --seeds A-B         the runs' seeds, inclusive (default 1-1)\n"
        "  --seed-set NAME     also set NAME to each run's seed, e.g. terrain.generate (repeatable)\n"
        "  --out DIR           the output folder (default: results/<experiment name>)\n"
        "  --plot X:Y[,Y2]     plot each Y (a measure, or outcome:LABEL) against grid parameter X\n"
        "\n"
        "Exit status: 0 every run complete; 2 bad input (the message names the file and the field);\n"
        "3 some runs incomplete (a rule or hook lost) or failed; 4 some runs not made yet (--collect);\n"
        "1 an output could not be written; 130 interrupted (run the same command again to resume).\n",
        out);
}

typedef enum mode { MODE_HERE, MODE_LIST, MODE_SLURM, MODE_RUN, MODE_COLLECT } mode;

typedef struct options {
  const char *file;     // the experiment file, or NULL
  mode mode;
  long run;             // --run K
  int jobs;
  bool quiet, retry_failed;
  const char *overrides[MAX_OVERRIDES];  // option, value, option, value, ... that change the experiment
  int override_count;
} options;

// ---- the command line ---------------------------------------------------------------------------

static bool whole_option(const char *opt, const char *value, long lo, long hi, long *out, char *err, size_t errlen)
{
  char *end;
  errno = 0;
  long v = strtol(value, &end, 10);
  if (errno != 0 || end == value || *end != '\0' || v < lo || v > hi) {
    snprintf(err, errlen, "%s %s: expected a whole number from %ld to %ld", opt, value, lo, hi);
    return false;
  }
  *out = v;
  return true;
}

static bool set_mode(options *o, mode m, const char *opt, char *err, size_t errlen)
{
  if (o->mode != MODE_HERE && o->mode != m) {
    snprintf(err, errlen, "%s: only one of --list, --slurm, --run and --collect may be given", opt);
    return false;
  }
  o->mode = m;
  return true;
}

// An option of the experiment, tried on a scratch experiment so that a mistake is reported now,
// naming the option, whatever the file says.
static int check_override(const char *opt, const char *value, char *err, size_t errlen)
{
  fbExperiment scratch;
  fbExperiment_Init(&scratch);
  int r = fbExperiment_Option(&scratch, opt, value, err, errlen);
  fbExperiment_Free(&scratch);
  if (r < 0) {
    snprintf(err, errlen, "%s: unknown option (see flockbox sweep --help)", opt);
    return 2;
  }
  return r;
}

static int valued_option(options *o, const char *opt, const char *value, char *err, size_t errlen)
{
  long v;
  if (strcmp(opt, "--jobs") == 0) {
    bool ok = whole_option(opt, value, 1, 1024, &v, err, errlen);
    o->jobs = (int)v;
    return ok ? 0 : 2;
  }
  if (strcmp(opt, "--run") == 0) {
    bool ok = set_mode(o, MODE_RUN, opt, err, errlen) && whole_option(opt, value, 1, FB_SWEEP_MAX_RUNS, &o->run, err,
                                                                       errlen);
    return ok ? 0 : 2;
  }
  if (check_override(opt, value, err, errlen) != 0) {
    return 2;
  }
  if (o->override_count + 2 > MAX_OVERRIDES) {
    snprintf(err, errlen, "%s: too many options", opt);
    return 2;
  }
  o->overrides[o->override_count++] = opt;
  o->overrides[o->override_count++] = value;
  return 0;
}

// Returns 0 to go on, 1 after --help, 2 on a mistake (message in err).
static int parse_options(options *o, int argc, char **argv, char *err, size_t errlen)
{
  memset(o, 0, sizeof *o);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  o->jobs = cores > 0 ? (int)cores : 1;
  static const struct {
    const char *name;
    mode mode;
  } modes[] = {{"--list", MODE_LIST}, {"--slurm", MODE_SLURM}, {"--collect", MODE_COLLECT}};
  for (int k = 1; k < argc; ++k) {
    const char *a = argv[k];
    bool handled = false;
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; ++m) {
      if (strcmp(a, modes[m].name) == 0) {
        handled = true;
        if (!set_mode(o, modes[m].mode, a, err, errlen)) {
          return 2;
        }
      }
    }
    if (handled) {
      continue;
    }
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fbSweep_PrintHelp(stdout);
      return 1;
    } else if (strcmp(a, "--quiet") == 0) {
      o->quiet = true;
    } else if (strcmp(a, "--retry-failed") == 0) {
      o->retry_failed = true;
    } else if (strncmp(a, "--", 2) == 0) {
      if (k + 1 >= argc) {
        snprintf(err, errlen, "%s: unknown option or missing value (see flockbox sweep --help)", a);
        return 2;
      }
      if (valued_option(o, a, argv[++k], err, errlen) != 0) {
        return 2;
      }
    } else if (o->file == NULL) {
      o->file = a;
    } else {
      snprintf(err, errlen, "%s: only one experiment file may be given (already have %s)", a, o->file);
      return 2;
    }
  }
  if (o->file == NULL && o->override_count == 0) {
    snprintf(err, errlen, "no experiment given (flockbox sweep EXPERIMENT.lua, or see flockbox sweep --help)");
    return 2;
  }
  return 0;
}

// Reads the file, applies the options and checks the whole; false with the message in err.
static bool load_experiment(fbExperiment *e, const options *o, char *err, size_t errlen)
{
  fbExperiment_Init(e);
  if (o->file != NULL && !fbExperiment_Read(e, o->file, err, errlen)) {
    return false;
  }
  for (int k = 0; k < o->override_count; k += 2) {
    if (fbExperiment_Option(e, o->overrides[k], o->overrides[k + 1], err, errlen) != 0) {
      return false;
    }
  }
  return fbExperiment_Check(e, err, errlen);
}

// ---- the runs to make ---------------------------------------------------------------------------

// The runs not made yet, in order (failed ones too with --retry-failed); *done counts the others.
static long *pending_runs(const fbPlan *p, bool retry_failed, long *count, long *done)
{
  long *runs = malloc((size_t)p->runs * sizeof *runs);
  FB_ASSERT(runs != NULL);
  *count = *done = 0;
  for (long run = 1; run <= p->runs; ++run) {
    int exit_status;
    fbRunState state = fbRunRecord_State(p, run, &exit_status);
    if (state == FB_RUN_PENDING || (retry_failed && state == FB_RUN_FAILED)) {
      runs[(*count)++] = run;
    } else {
      ++*done;
    }
  }
  return runs;
}

static int report(const fbPlan *p)
{
  const char *out = p->e->out;
  fbSweepCounts c;
  char err[1024];
  if (!fbSweepCollect_Write(p, &c, err, sizeof err)) {
    fprintf(stderr, "sweep: %s\n", err);
    return 1;
  }
  int pictures = fbSweepPlot_Draw(p);
  printf("sweep: %ld runs (%ld complete, %ld incomplete, %ld failed, %ld not made): %s/results.csv, %s/summary.csv",
         p->runs, c.complete, c.incomplete, c.failed, c.pending, out, out);
  if (pictures > 0) {
    printf(", %d plot%s in %s", pictures, pictures == 1 ? "" : "s", out);
  }
  printf("\n");
  if (c.failed > 0) {
    fprintf(stderr, "sweep: %ld run%s failed; the first, run %ld, exited with status %d: see %s/runs/%ld.log\n",
            c.failed, c.failed == 1 ? "" : "s", c.first_failed, c.first_failed_exit, out, c.first_failed);
  }
  if (c.incomplete > 0) {
    fprintf(stderr, "sweep: %ld run%s lost a rule or a hook (incomplete, left out of the means); the first is run "
            "%ld: see %s/runs/%ld.log\n", c.incomplete, c.incomplete == 1 ? "" : "s", c.first_incomplete, out,
            c.first_incomplete);
  }
  if (c.other_inputs > 0) {
    fprintf(stderr, "sweep: %ld run%s made by another flockbox or from other files than run %ld (the first is run "
            "%ld: compare \"flockbox\", \"scenario_sha256\" and \"inputs\" in their .csv.json)\n", c.other_inputs,
            c.other_inputs == 1 ? " was" : "s were", c.reference, c.first_other);
  }
  if (c.pending > 0) {
    fprintf(stderr, "sweep: %ld run%s not made yet (listed as pending)\n", c.pending, c.pending == 1 ? "" : "s");
    return 4;
  }
  return c.failed + c.incomplete + c.other_inputs > 0 ? 3 : 0;
}

// ---- the modes ----------------------------------------------------------------------------------

// The runs a mode works on: those not made yet.
typedef struct pending {
  long *runs;
  long count;
  long done;   // runs of the plan made already
} pending;

/*
 * Before runs are made or handed out, in this order: the output folder holds no other plan; the
 * scenario accepts every value the runs will set (sweep_check.h); only then is the folder made
 * and claimed, so a mistake in the experiment leaves nothing behind to clash with its correction.
 * Returns 0 or the exit status, with the message printed.
 */
static int prepare(const fbPlan *p, const options *o, pending *todo)
{
  char err[2048];
  memset(todo, 0, sizeof *todo);
  int status = fbPlan_Compare(p, true, err, sizeof err);
  if (status == 0) {
    todo->runs = pending_runs(p, o->retry_failed, &todo->count, &todo->done);
    status = todo->count > 0 ? fbSweepCheck_Runs(p, err, sizeof err) : 0;
    status = status == 0 || status == 1 ? status : 2;
  }
  if (status == 0) {
    status = fbPlan_Claim(p, true, err, sizeof err);
  }
  if (status != 0) {
    fprintf(stderr, "sweep: %s\n", err);
  }
  return status;
}

/*
 * Two sweeps making runs in one folder at once would each clear and make the other's runs: the
 * second is refused. The lock is flock(2) on OUT/sweep.lock, so it goes with the process (a killed
 * sweep holds nothing; the runs do not inherit it), and a sweep that ends removes the file while
 * still holding it. Removing makes one race: a second sweep may have opened the file just before
 * and lock it just after, holding a lock on a file no longer in the folder while a third makes and
 * locks a new one. So a lock counts only when the file locked is still the one at the path
 * (same device and inode), and otherwise is tried again on the file now there.
 */
static bool still_named(int fd, const char *path)
{
  struct stat held, named;
  return fstat(fd, &held) == 0 && stat(path, &named) == 0 && held.st_dev == named.st_dev &&
         held.st_ino == named.st_ino;
}

// The lock's file descriptor, or -1 (and a message) when it is not ours.
static int lock_folder(const fbPlan *p)
{
  char path[4200];
  snprintf(path, sizeof path, "%s/sweep.lock", p->e->out);
  char why[256];
  for (int attempt = 0; attempt < 100; ++attempt) {
    if (!fbFilePath_CheckOutput(path, why, sizeof why)) {  // a FIFO there would block the open
      fprintf(stderr, "sweep: %s: cannot be made: %s\n", path, why);
      return -1;
    }
    int fd = open(path, O_RDWR | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0) {
      if (still_named(fd, path)) {
        return fd;  // held until unlock_folder or the process's end
      }
      close(fd);  // a lock on a file an ending sweep has just removed: try the one there now
      continue;
    }
    fprintf(stderr, "sweep: %s: %s\n", p->e->out,
            fd < 0 ? strerror(errno) : "another sweep is making runs in this folder; wait for it, or give another --out");
    if (fd >= 0) {
      close(fd);
    }
    return -1;
  }
  fprintf(stderr, "sweep: %s: the lock file keeps being replaced\n", path);
  return -1;
}

// Removed while held, so no other sweep holds a lock on it (see lock_folder).
static void unlock_folder(const fbPlan *p, int fd)
{
  char path[4200];
  snprintf(path, sizeof path, "%s/sweep.lock", p->e->out);
  unlink(path);
  close(fd);
}

// Makes the pending runs and collects them, under the folder's lock.
static int make_locked(const fbPlan *p, const options *o)
{
  char err[2048];
  bool interrupted = false;
  pending todo;  // listed again under the lock: a sweep that held it may have made some
  todo.runs = pending_runs(p, o->retry_failed, &todo.count, &todo.done);
  bool ok = true;
  if (todo.count > 0) {
    fbPoolOptions po = {o->jobs, todo.done, o->quiet, o->retry_failed};
    ok = fbSweepPool_Run(p, todo.runs, todo.count, &po, &interrupted, err, sizeof err);
  }
  free(todo.runs);
  if (!ok) {
    fprintf(stderr, "sweep: %s\n", err);
    return 1;
  }
  if (interrupted) {
    fprintf(stderr, "sweep: interrupted; run the same command again to make the remaining runs\n");
    return 130;
  }
  return report(p);
}

static int make_here(const fbPlan *p, const options *o)
{
  int lock = lock_folder(p);
  if (lock < 0) {
    return 2;
  }
  int status = make_locked(p, o);
  unlock_folder(p, lock);
  return status;
}

// "/abs/flockbox sweep EXP [the options that change the experiment]": what every host runs.
static void write_sweep_command(FILE *f, const fbPlan *p, const options *o)
{
  fbPlan_ShellWord(f, p->self);
  fputs(" sweep", f);
  if (o->file != NULL) {
    fputc(' ', f);
    fbPlan_ShellWord(f, o->file);
  }
  for (int k = 0; k < o->override_count; ++k) {
    fputc(' ', f);
    fbPlan_ShellWord(f, o->overrides[k]);
  }
  if (o->retry_failed) {
    fputs(" --retry-failed", f);
  }
}

/*
 * Every word a job list or a Slurm script holds is one line: a newline inside a word would end
 * the line (or the comment it sits in) and start a command. Exit 2 otherwise. (Spaces, '#', '%'
 * and quotes are fine: the one #SBATCH line holding a folder quotes it, see sbatch_output.)
 */
static bool words_fit_a_script(const fbPlan *p, const options *o, const char *cwd)
{
  const char *words[MAX_OVERRIDES + 4] = {p->self, o->file ? o->file : "", p->e->out, cwd ? cwd : ""};
  int n = 4;
  for (int k = 0; k < o->override_count && n < (int)(sizeof words / sizeof words[0]); ++k) {
    words[n++] = o->overrides[k];
  }
  char why[160];
  for (int k = 0; k < n; ++k) {
    if (!fbName_CheckLine(words[k], strlen(words[k]), why, sizeof why)) {
      fprintf(stderr, "sweep: cannot write '%.80s' into a script: it %s\n", words[k], why);
      return false;
    }
  }
  return true;
}

static int list_runs(const fbPlan *p, const options *o, const pending *todo)
{
  if (!words_fit_a_script(p, o, NULL)) {
    return 2;
  }
  for (long k = 0; k < todo->count; ++k) {
    write_sweep_command(stdout, p, o);
    printf(" --run %ld\n", todo->runs[k]);
  }
  if (todo->count == 0) {
    fprintf(stderr, "sweep: all %ld runs are made; nothing to list\n", p->runs);
  }
  return 0;
}

// Runs as Slurm's --array wants them: "1-40" or "3,5,17-40".
static void write_ranges(FILE *f, const long *runs, long count)
{
  for (long k = 0; k < count;) {
    long end = k;
    while (end + 1 < count && runs[end + 1] == runs[end] + 1) {
      ++end;
    }
    fprintf(f, "%s%ld", k > 0 ? "," : "", runs[k]);
    if (end > k) {
      fprintf(f, "-%ld", runs[end]);
    }
    k = end + 1;
  }
}

/*
 * The #SBATCH --output line: the out folder made absolute (sbatch resolves a relative one against
 * the job's working folder, not this one), in double quotes with '"' escaped, as sbatch reads its
 * directives: unquoted, it ends the word at a space and drops the rest of the line at a '#'. Each
 * '%' doubled: slurmstepd expands %A, %a, %x... in this path, and a real Slurm failed every task
 * of an out folder named "50%x" (it could not open the expanded file). A backslash cannot be
 * written at all: slurmstepd drops it and then expands no pattern in the whole path, so the
 * caller refuses such a folder (output_fits_slurm).
 */
static void sbatch_output(FILE *f, const char *cwd, const char *out)
{
  fputs("#SBATCH --output=\"", f);
  for (int part = out[0] == '/' ? 1 : 0; part < 2; ++part) {
    for (const char *c = part == 0 ? cwd : out; *c != '\0'; ++c) {
      if (*c == '"' || *c == '%') {
        fputc(*c == '%' ? '%' : '\\', f);
      }
      fputc(*c, f);
    }
    if (part == 0 && (cwd[0] == '\0' || cwd[strlen(cwd) - 1] != '/')) {
      fputc('/', f);
    }
  }
  fputs("/runs/slurm-%A_%a.out\"\n", f);
}

// False (exit 2) when the path sbatch_output writes would hold a backslash.
static bool output_fits_slurm(const options *o, const char *cwd, const char *out)
{
  bool relative = out[0] != '/';
  if (strchr(out, '\\') == NULL && (!relative || strchr(cwd, '\\') == NULL)) {
    return true;
  }
  fprintf(stderr,
          "sweep: %s%sout: Slurm cannot write its output under '%s%s%s': slurmstepd drops a backslash from the "
          "path; choose an out folder without one\n",
          o->file ? o->file : "", o->file ? ": " : "--", relative ? cwd : "", relative ? "/" : "", out);
  return false;
}

/*
 * The tasks run in the folder --slurm was run in (the experiment file, its scenario and a relative
 * out folder are named from there), so that folder must be the same path on every node. The
 * script enters it itself rather than with #SBATCH --chdir: when a node cannot enter the --chdir
 * folder, slurmstepd logs an error and runs the task in /tmp, where a relative out folder would
 * be somebody else's. The cd fails the task with exit 2 and says which folder instead.
 */
static int slurm_script(const fbPlan *p, const options *o, const pending *todo)
{
  char cwd[4096];
  if (todo->count == 0) {
    fprintf(stderr, "sweep: all %ld runs are made; no script to write\n", p->runs);
    return 0;
  }
  if (getcwd(cwd, sizeof cwd) == NULL) {
    fprintf(stderr, "sweep: cannot read the current folder\n");
    return 1;
  }
  if (!words_fit_a_script(p, o, cwd) || !output_fits_slurm(o, cwd, p->e->out)) {
    return 2;
  }
  printf("#!/bin/bash\n# Slurm job array: the %ld pending runs of a flockbox sweep (%ld runs in all), one CPU each.\n",
         todo->count, p->runs);
  printf("# Submit with: sbatch FILE. When every task has ended, merge the results with:\n#   ");
  write_sweep_command(stdout, p, o);
  printf(" --collect\n#SBATCH --job-name=flockbox-sweep\n#SBATCH --array=");
  write_ranges(stdout, todo->runs, todo->count);
  printf("\n#SBATCH --cpus-per-task=1\n");
  sbatch_output(stdout, cwd, p->e->out);
  printf("sweep_folder=");
  fbPlan_ShellWord(stdout, cwd);
  printf("\ncd -- \"$sweep_folder\" || { echo \"flockbox sweep: cannot enter $sweep_folder on $(hostname): every node must "
         "share the folder this script was written in\" >&2; exit 2; }\nexec ");
  write_sweep_command(stdout, p, o);
  printf(" --run \"$SLURM_ARRAY_TASK_ID\"\n");
  return 0;
}

// --run K: makes the run unless it is made already; the status says how it went.
static int make_one(const fbPlan *p, const options *o)
{
  int exit_status;
  fbRunState state = fbRunRecord_State(p, o->run, &exit_status);
  char err[1024];
  int claim = fbRunRecord_Claim(p, o->run, err, sizeof err);
  if (claim < 0 && err[0] == '\0') {
    fprintf(stderr, "sweep: run %ld is being made by another process (it holds the run's claim); not made here\n",
            o->run);
    return 0;
  }
  fbRunRecord_Release(claim);  // the pool claims it again, for as long as it makes it
  if (state == FB_RUN_PENDING || (o->retry_failed && state == FB_RUN_FAILED)) {
    bool interrupted = false;
    fbPoolOptions po = {1, 0, true, o->retry_failed};
    if (!fbSweepPool_Run(p, &o->run, 1, &po, &interrupted, err, sizeof err)) {
      fprintf(stderr, "sweep: %s\n", err);
      return 1;
    }
    if (interrupted) {
      return 130;
    }
    state = fbRunRecord_State(p, o->run, &exit_status);
  } else if (!o->quiet) {
    fprintf(stderr, "sweep: run %ld is made already (%s)\n", o->run, fbRunState_Name(state));
  }
  if (state != FB_RUN_COMPLETE) {
    fprintf(stderr, "sweep: run %ld: %s (exit status %d): see %s/runs/%ld.log\n", o->run, fbRunState_Name(state),
            exit_status, p->e->out, o->run);
  }
  return state == FB_RUN_COMPLETE ? 0 : state == FB_RUN_PENDING ? 130 : 3;
}

// The modes that only read the runs, or make one, need the folder to hold exactly this plan.
static int claim_exactly(const fbPlan *p)
{
  char err[2048];
  int status = fbPlan_Claim(p, false, err, sizeof err);
  if (status != 0) {
    fprintf(stderr, "sweep: %s\n", err);
  }
  return status;
}

// The sweep's own files in its folder, checked before any run is made: a folder, a FIFO or a
// device where one goes is bad input (exit 2), named, never written to or renamed over.
static bool outputs_are_files(const fbPlan *p, char *err, size_t errlen)
{
  const char *out = p->e->out, *files[] = {"plan.txt", "results.csv", "summary.csv", "sweep.lock"};
  struct stat st;
  if (stat(out, &st) == 0 && !S_ISDIR(st.st_mode)) {
    snprintf(err, errlen, "%s: the out folder is not a folder", out);
    return false;
  }
  char path[4200], why[256];
  for (size_t k = 0; k < sizeof files / sizeof files[0]; ++k) {
    snprintf(path, sizeof path, "%s/%s", out, files[k]);
    if (!fbFilePath_CheckOutput(path, why, sizeof why)) {
      snprintf(err, errlen, "%s: cannot write there: %s", path, why);
      return false;
    }
  }
  return true;
}

static int run_mode(const fbPlan *p, const options *o)
{
  if (o->mode == MODE_RUN || o->mode == MODE_COLLECT) {
    int status = claim_exactly(p);
    return status != 0 ? status : o->mode == MODE_RUN ? make_one(p, o) : report(p);
  }
  pending todo;
  int status = prepare(p, o, &todo);
  if (status == 0) {
    switch (o->mode) {
    case MODE_LIST: status = list_runs(p, o, &todo); break;
    case MODE_SLURM: status = slurm_script(p, o, &todo); break;
    default: status = make_here(p, o); break;
    }
  }
  free(todo.runs);
  return status;
}

int fbSweep_Main(int argc, char **argv)
{
  fbSweepPool_BlockSignals();  // before the Lua host starts its watchdog thread
  options o;
  char err[2048];
  int status = parse_options(&o, argc, argv, err, sizeof err);
  if (status != 0) {
    if (status == 2) {
      fprintf(stderr, "sweep: %s\n", err);
    }
    return status == 1 ? 0 : status;
  }
  fbExperiment e;
  fbPlan p;
  char self[4096];
  fbSweepPool_CatchStops(true);
  bool loaded = load_experiment(&e, &o, err, sizeof err);
  if (fbSweepPool_CatchStops(false)) {
    snprintf(err, sizeof err, "interrupted while reading the experiment");
    status = 130;
  } else if (!loaded) {
    status = 2;
  } else if (!fbProcess_Self(self, sizeof self)) {
    snprintf(err, sizeof err, "cannot find the flockbox executable (/proc/self/exe)");
    status = 1;
  } else {
    fbPlan_Make(&p, &e, self);
    if (o.mode == MODE_RUN && o.run > p.runs) {
      snprintf(err, sizeof err, "--run %ld: the plan has %ld runs", o.run, p.runs);
      status = 2;
    } else if (!outputs_are_files(&p, err, sizeof err)) {
      status = 2;
    }
  }
  if (status != 0) {
    fprintf(stderr, "sweep: %s\n", err);
  } else {
    status = run_mode(&p, &o);
  }
  fbExperiment_Free(&e);
  return status;
}
