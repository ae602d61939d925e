// headless.c — a run with no display: steps, CSV, an optional picture through the view library, the summary line.
#define _POSIX_C_SOURCE 200809L
#include "headless.h"

#include <signal.h>
#include <string.h>
#include <time.h>

#include "render.h"
#include "run.h"

// The summary line. A run that lost a rule says so at its end, naming the first rule and the step,
// so that it never reads like a clean run.
static void print_summary(fbSim *sim, long steps, double elapsed)
{
  fbMeasures m;
  fbTelemetry_Measure(sim, &m);
  printf("flockbox: %s: %ld steps, %d agents, seed %llu, %.2f s (%.0f steps/s), mean speed %.4g, "
         "polarisation %.3f, mean nn %.4g, hash %016llx",
         sim->name, steps, m.agents, (unsigned long long)sim->world.seed, elapsed,
         elapsed > 0 ? steps / elapsed : 0.0, m.mean_speed, m.polarisation, m.mean_nn,
         (unsigned long long)fbSim_Hash(sim));
  int off = sim->rules.switched_off;
  if (off > 0) {
    printf("; INCOMPLETE: %s%s", sim->rules.first_off, off > 1 ? " (and others)" : "");
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

// Ctrl-C (or SIGTERM) ends a headless run after the current step, with its CSV complete.
static volatile sig_atomic_t interrupted;

static void on_interrupt(int signal_number)
{
  (void)signal_number;
  interrupted = 1;
}

static void catch_interrupts(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_interrupt;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

int fbHeadless_Run(const fbCli *cli)
{
  static fbRun run;  // large; static keeps it off the stack
  char err[4096];
  int status = fbRun_Begin(&run, cli, &cli->run, err, sizeof err);
  if (status != 0) {
    fprintf(stderr, "flockbox: %s\n", err);
    return status;
  }
  fbSim *sim = &run.sim;
  double start = fbRun_Seconds();
  bool ok = fbRun_Row(&run);
  interrupted = 0;
  catch_interrupts();
  while (ok && run.steps < cli->steps && !interrupted) {
    keep_pace(cli->pace, run.steps, start);
    fbRun_Poll(&run);
    ok = fbRun_Step(&run);
  }
  if (ok && run.steps % cli->every != 0) {
    ok = fbRun_Row(&run);  // the final state is always in the CSV
  }
  double elapsed = fbRun_Seconds() - start;
  if (!ok) {
    fprintf(stderr, "flockbox: %s\n", sim->error);
    status = 2;
  }
  if (!fbRun_End(&run)) {
    fprintf(stderr, "flockbox: %s: writing the CSV failed\n", cli->csv);
    status = status ? status : 1;
  }
  if (status == 0 && cli->png != NULL && !fbRender_SavePng(sim, cli->png, 1024, 1024, err, sizeof err)) {
    fprintf(stderr, "flockbox: %s\n", err);
    status = 1;
  }
  if (status == 0 && !cli->quiet) {
    print_summary(sim, run.steps, elapsed);
  }
  if (status == 0 && interrupted) {
    status = 130;  // the shell's convention for a run ended by Ctrl-C
  }
  if (status == 0 && sim->rules.switched_off > 0 && !cli->keep_going) {
    status = 3;  // the run went on without a rule: not a plain success
  }
  fbSim_Free(sim);
  return status;
}
