// headless.c — a run with no display: steps, CSV, an optional picture through the view library, the summary line.
#define _POSIX_C_SOURCE 200809L
#include "headless.h"

#include "lua_host.h"
#include "paths.h"

#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "render.h"
#include "run.h"
#include "run_meta.h"

// The summary line. A run that lost a rule or a hook says so at its end, naming the first one and
// the step, so that it never reads like a clean run; a run a hook ended gives its outcome.
static void print_summary(fbSim *sim, long steps, double elapsed)
{
  fbMeasures m;
  fbTelemetry_Measure(sim, &m);
  printf("flockbox: %s: %ld steps, %d agents, seed %llu, %.2f s (%.0f steps/s), mean speed %.4g, "
         "polarisation %.3f, mean nn %.4g, hash %016llx",
         fbSim_Name(sim), steps, m.agents, (unsigned long long)fbSim_World(sim)->seed, elapsed,
         elapsed > 0 ? steps / elapsed : 0.0, m.mean_speed, m.polarisation, m.mean_nn,
         (unsigned long long)fbSim_Hash(sim));
  double when = 0;
  const char *outcome = fbSim_Outcome(sim, &when);
  if (outcome != NULL) {
    printf("; outcome %s at %.6g s", outcome, when);
  }
  char lost[512];
  if (fbSim_Lost(sim, lost, sizeof lost) > 0) {
    printf("; INCOMPLETE: %s", lost);
  }
  printf("\n");
}

// --pace: sleep so that step n starts no earlier than n / pace seconds after the start.
static void keep_pace(long pace, long steps, double start)
{
  double wait = start + (double)steps / (double)pace - fbRun_Seconds();
  if (pace > 0 && wait > 0) {
    struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
    nanosleep(&ts, NULL);
  }
}

// The exit status of a run that could not start (README, exit statuses): bad input 2, an output
// that cannot be written 1. The window (viewer.c) answers the same.
static int start_exit_status(fbRunStart start)
{
  return start == FB_START_BAD_SCENARIO || start == FB_START_BAD_OUTPUT ? 2 : 1;
}

// Ctrl-C (or SIGTERM) ends a headless run after the current step, with its CSV complete. A second
// one ends it at once: a step cannot be stopped half-way, and a heavy one takes long (12 000 agents
// on one spot, each walking all the others in Lua: 6 s a step), so a user who presses Ctrl-C again
// has chosen not to wait for it.
static volatile sig_atomic_t interrupted;

static void on_interrupt(int signal_number)
{
  (void)signal_number;
  if (interrupted) {
    static const char message[] = "flockbox: interrupted again: stopped mid-step (the CSV may end early)\n";
    ssize_t written = write(STDERR_FILENO, message, sizeof message - 1);  // async-signal-safe, unlike fprintf
    (void)written;
    _exit(130);
  }
  interrupted = 1;
  fbLuaHost_RequestStop();  // a script stuck in the load or the step stops within 0.1 s of CPU time
}

static void catch_interrupts(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_interrupt;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

// The run's status and exit status once it has ended (before any output error): see the README.
static const char *run_status(const fbSim *sim, const fbCli *cli, bool ok, int *exit_status)
{
  char lost[8];
  if (!ok) {
    *exit_status = 2;  // a hook or metric failed: the scenario is bad, the run stopped there
    return "failed";
  }
  if (interrupted) {
    *exit_status = 130;  // the shell's convention for a run ended by Ctrl-C
    return "interrupted";
  }
  if (fbSim_Lost(sim, lost, sizeof lost) > 0) {
    *exit_status = cli->run.keep_going ? 0 : 3;  // the run went on without a rule: not a plain success
    return "incomplete";
  }
  *exit_status = 0;
  return "complete";
}

// FILE.csv.json beside the CSV: how the CSV was made and how the run ended.
static bool write_meta(const fbRun *run, const char *status, int exit_status, char *err, size_t errlen)
{
  const fbCli *cli = run->cli;
  char path[1100];
  snprintf(path, sizeof path, "%s.json", cli->csv);
  bool failed = strcmp(status, "failed") == 0;
  fbRunMeta meta = {cli->scenario, cli->steps, run->steps, cli->every, status, exit_status,
                    failed ? fbSim_Error(run->sim) : "", run->cli->watch ? &run->reload : NULL,
                    run->loaded ? cli->load_state : NULL, run->loaded_info.step, run->loaded_info.rules_differ};
  return fbRunMeta_Write(path, run->sim, &meta, err, errlen);
}

// --profile: the table, on standard output.
static void print_profile(const fbSim *sim)
{
  fbProfileRow rows[FB_PROFILE_MAX_ROWS];
  long steps;
  int n = fbSim_ProfileTable(sim, rows, FB_PROFILE_MAX_ROWS, &steps);
  fbProfile_Print(rows, n, steps, fbSim_Threads(sim), stdout);
}

// --save-state: at step --save-state-at when the run is there (at_end false), else after the last
// step; a state that cannot be saved (a hook's upvalue it cannot hold) is bad input, exit 2.
static int save_state(const fbCli *cli, fbSim *sim, bool at_end, bool *saved)
{
  bool due = at_end ? cli->save_state_at < 0 : (long)fbSim_World(sim)->step == cli->save_state_at;
  if (cli->save_state == NULL || *saved || !due) {
    return 0;
  }
  char err[2048];
  *saved = true;
  if (!fbState_Save(sim, cli->save_state, err, sizeof err)) {
    fprintf(stderr, "flockbox: %s\n", err);
    char why[256];  // a folder, a FIFO or a device put there during the run is bad input too
    return strstr(err, "cannot write") != NULL && fbFilePath_CheckOutput(cli->save_state, why, sizeof why) ? 1 : 2;
  }
  return 0;
}

static bool stopped(const fbSim *sim)
{
  double when;
  return fbSim_Outcome(sim, &when) != NULL;
}

int fbHeadless_Run(const fbCli *cli)
{
  static fbRun run;  // large; static keeps it off the stack
  char err[4096];
  interrupted = 0;
  catch_interrupts();  // from the start: loading runs the scenario's Lua, which may be stuck
  fbRunStart begun = fbRun_Begin(&run, cli, &cli->run, err, sizeof err);
  if (begun != FB_START_RUNNING && interrupted) {
    fprintf(stderr, "flockbox: %s: interrupted while loading (%s)\n", cli->scenario, err);
    return 130;
  }
  if (begun != FB_START_RUNNING) {
    fprintf(stderr, "flockbox: %s\n", err);
    return start_exit_status(begun);
  }
  int status = 0;
  fbSim *sim = run.sim;
  fbSim_Profile(sim, cli->profile);
  double start = fbRun_Seconds();
  bool ok = fbRun_Row(&run), saved = false;
  int save_status = save_state(cli, sim, false, &saved);
  while (ok && save_status == 0 && run.steps < cli->steps && !interrupted && !stopped(sim)) {
    keep_pace(cli->pace, run.steps, start);
    fbRun_Poll(&run);
    ok = fbRun_Step(&run);
    save_status = ok ? save_state(cli, sim, false, &saved) : 0;
  }
  if (ok && save_status == 0) {
    save_status = save_state(cli, sim, true, &saved);
  }
  if (ok && save_status == 0 && cli->save_state != NULL && !saved) {
    fprintf(stderr, "flockbox: %s: --save-state-at %ld: the run ended at step %llu, before it; nothing saved\n",
            cli->save_state, cli->save_state_at, (unsigned long long)fbSim_World(sim)->step);
    save_status = 1;
  }
  if (ok && run.steps % cli->every != 0) {
    ok = fbRun_Row(&run);  // the final state is always in the CSV
  }
  double elapsed = fbRun_Seconds() - start;
  if (!ok) {
    fprintf(stderr, "flockbox: %s\n", fbSim_Error(sim));
  }
  const char *run_state = run_status(sim, cli, ok, &status);
  bool written = fbRun_End(&run);
  if (!written) {
    fprintf(stderr, "flockbox: %s: writing the CSV failed\n", cli->csv);
  }
  if (written && cli->csv != NULL && !write_meta(&run, run_state, status, err, sizeof err)) {
    fprintf(stderr, "flockbox: %s\n", err);
    written = false;
  }
  if (!written) {
    status = status ? status : 1;
  }
  status = status ? status : save_status;
  if (written && ok && cli->png != NULL && !fbRender_SavePng(sim, cli->png, 1024, 1024, err, sizeof err)) {
    fprintf(stderr, "flockbox: %s\n", err);
    status = status ? status : 1;
  }
  if (ok && written && !cli->quiet) {
    print_summary(sim, run.steps, elapsed);
  }
  if (cli->profile) {
    print_profile(sim);
  }
  fbRun_Free(&run);
  fbSim_Delete(sim);
  return status;
}
