// headless.c — a run with no display: steps, CSV, an optional picture through the view library, the summary line.
#define _POSIX_C_SOURCE 200809L
#include "headless.h"

#include "dap_server.h"
#include "paths.h"
#include "lua_host.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "headless_console.h"
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

// What happened to a run, set where each thing happens: starting it, its steps, each output.
// exit_status() alone turns it into the process's exit status.
typedef enum Steps {
  STEPS_COMPLETE,     // every step asked for made, or a hook ended the run with fb.stop
  STEPS_INCOMPLETE,   // the run went on without a rule or hook that failed and was switched off
  STEPS_FAILED,       // a hook or metric failed: the scenario is bad, the run stopped there
  STEPS_INTERRUPTED,  // Ctrl-C or SIGTERM (while loading, too)
} Steps;

typedef enum Output {
  OUTPUT_WRITTEN,      // or not asked for
  OUTPUT_NOT_WRITTEN,  // the disk or the folder refused it
  OUTPUT_REFUSED,      // bad input: the path is a folder, a FIFO or a device, or a file cannot hold it
} Output;

typedef struct Outcome {
  fbRunStart start;
  Steps steps;
  bool keep_going;  // --keep-going: a run without a rule or hook still succeeds
  Output record;    // the CSV and its metadata
  Output state;     // --save-state
  Output picture;   // --png
  Output trace;     // --trace
  bool traced;      // ... its step was made
} Outcome;

static const char *const steps_names[] = {"complete", "incomplete", "failed", "interrupted"};

// The exit status (docs/running.md, "Exit status"; cli.c's --help; the window answers the same for
// a run that cannot start): how the steps ended comes first, then the outputs in the order they
// are written.
static int exit_status(const Outcome *o)
{
  if (o->steps == STEPS_INTERRUPTED) {
    return 130;  // the shell's convention for a run ended by Ctrl-C
  }
  if (o->start != FB_START_RUNNING) {
    return o->start == FB_START_CANNOT_WRITE ? 1 : 2;
  }
  if (o->steps == STEPS_FAILED) {
    return 2;
  }
  if (o->steps == STEPS_INCOMPLETE && !o->keep_going) {
    return 3;  // not a plain success
  }
  const Output outputs[] = {o->record, o->state, o->picture, o->trace};
  for (size_t k = 0; k < sizeof outputs / sizeof outputs[0]; ++k) {
    if (outputs[k] != OUTPUT_WRITTEN) {
      return outputs[k] == OUTPUT_REFUSED ? 2 : 1;
    }
  }
  return 0;
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

// How the steps ended, once they have.
static Steps steps_outcome(const fbSim *sim, bool ok)
{
  char lost[8];
  if (!ok) {
    return STEPS_FAILED;
  }
  if (interrupted) {
    return STEPS_INTERRUPTED;
  }
  return fbSim_Lost(sim, lost, sizeof lost) > 0 ? STEPS_INCOMPLETE : STEPS_COMPLETE;
}

// FILE.csv.json beside the CSV: how the CSV was made and how the run ended, with the exit status
// its steps gave (an output that fails after them is not in it).
static bool write_meta(const fbRun *run, const Outcome *o, const fbConsole *console, char *err, size_t errlen)
{
  const fbCli *cli = run->cli;
  char path[1100];
  snprintf(path, sizeof path, "%s.json", cli->csv);
  const Outcome steps_only = {.start = o->start, .steps = o->steps, .keep_going = o->keep_going};
  fbRunMeta meta = {cli->scenario, cli->steps, run->steps, cli->every, steps_names[o->steps], exit_status(&steps_only),
                    o->steps == STEPS_FAILED ? fbSim_Error(run->sim) : "", run->cli->watch ? &run->reload : NULL,
                    run->loaded ? cli->load_state : NULL, run->loaded_info.step, run->loaded_info.rules_differ,
                    console};
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
// step. A state that cannot be saved (a hook's upvalue it cannot hold) is bad input, as is a path
// that became a folder, a FIFO or a device during the run.
static Output save_state(const fbCli *cli, fbSim *sim, bool at_end, bool *saved)
{
  bool due = at_end ? cli->save_state_at < 0 : (long)fbSim_World(sim)->step == cli->save_state_at;
  if (cli->save_state == NULL || *saved || !due) {
    return OUTPUT_WRITTEN;
  }
  char err[2048];
  bool bad_input = false;
  *saved = true;
  if (!fbState_Save(sim, cli->save_state, &bad_input, err, sizeof err)) {
    fprintf(stderr, "flockbox: %s\n", err);
    return bad_input ? OUTPUT_REFUSED : OUTPUT_NOT_WRITTEN;
  }
  return OUTPUT_WRITTEN;
}

static bool stopped(const fbSim *sim)
{
  double when;
  return fbSim_Outcome(sim, &when) != NULL;
}

// Loads the scenario and checks and opens the outputs; false, with the message, if the run cannot start.
static bool start_run(fbRun *run, const fbCli *cli, Outcome *o)
{
  char err[4096];
  o->start = fbRun_Begin(run, cli, &cli->run, err, sizeof err);
  if (o->start == FB_START_RUNNING) {
    return true;
  }
  if (interrupted) {
    fprintf(stderr, "flockbox: %s: interrupted while loading (%s)\n", cli->scenario, err);
    o->steps = STEPS_INTERRUPTED;
  } else {
    fprintf(stderr, "flockbox: %s\n", err);
  }
  return false;
}

/*
 * --trace: the step that starts at world step --trace-step runs with agent --trace inspected and
 * its rules traced into --trace-out (standard output by default, before the summary line). The
 * trace only reads, so the run is the same with it. An id no agent has at that step is bad input
 * (one message, exit 2); a trace file that cannot be written is an output not written (exit 1).
 */
static void write_trace_text(const char *text, void *ud) { fputs(text, ud); }

static void traced_step(fbRun *run, Outcome *o, bool *ok)
{
  const fbCli *cli = run->cli;
  fbSim *sim = run->sim;
  const fbWorld *w = fbSim_World(sim);
  if (fbWorld_FindAgent(w, cli->trace_id) < 0) {
    fprintf(stderr, "flockbox: --trace %u: no agent has that id at step %llu (%d agents there, ids from 1)\n",
            (unsigned)cli->trace_id, (unsigned long long)w->step, w->agents.count);
    o->trace = OUTPUT_REFUSED;
    return;
  }
  char why[256] = "";
  FILE *out = cli->trace_out != NULL ? fbFilePath_OpenOutput(cli->trace_out, "w", why, sizeof why) : stdout;
  if (out == NULL) {
    fprintf(stderr, "flockbox: %s: cannot write the trace: %s\n", cli->trace_out, why);
    o->trace = OUTPUT_NOT_WRITTEN;
    return;
  }
  fbSim_Inspect(sim, cli->trace_id);
  fbSim_Trace(sim, write_trace_text, out);
  *ok = fbRun_Step(run);
  fbSim_Trace(sim, NULL, NULL);
  fbSim_Inspect(sim, 0);
  bool written = fflush(out) == 0 && !ferror(out);
  if (out != stdout && fclose(out) != 0) {
    written = false;
  }
  if (!written) {
    fprintf(stderr, "flockbox: %s: writing the trace failed\n", cli->trace_out != NULL ? cli->trace_out : "(standard output)");
  }
  o->trace = written ? OUTPUT_WRITTEN : OUTPUT_NOT_WRITTEN;
  o->traced = true;
}

// The first row, then a step and its row until the steps asked for are made, a hook stops the run,
// Ctrl-C, :quit in the console, or a hook, a metric or --save-state fails; the state is saved at
// the step it is due. With --console (console not NULL) the console has a turn before each step
// and after the last. False if a hook or metric failed.
static bool make_steps(fbRun *run, Outcome *o, double start, bool *saved, fbHeadlessConsole *console)
{
  const fbCli *cli = run->cli;
  bool ok = fbRun_Row(run);
  o->state = save_state(cli, run->sim, false, saved);
  while (ok && o->state == OUTPUT_WRITTEN && o->trace == OUTPUT_WRITTEN && run->steps < cli->steps && !interrupted &&
         !stopped(run->sim)) {
    if (console != NULL && !fbHeadlessConsole_BeforeStep(console, run)) {
      return ok;  // :quit
    }
    keep_pace(cli->pace, run->steps, start);
    if (cli->dap_port >= 0) {
      fbDap_Poll(fbSim_World(run->sim)->step);
    }
    fbRun_Poll(run);
    if (cli->trace_id != 0 && fbSim_World(run->sim)->step == (uint64_t)cli->trace_step) {
      traced_step(run, o, &ok);
    } else {
      ok = fbRun_Step(run);
    }
    o->state = ok ? save_state(cli, run->sim, false, saved) : OUTPUT_WRITTEN;
    if (console != NULL) {
      fbHeadlessConsole_AfterStep(console, run);
    }
  }
  if (ok && console != NULL && !interrupted) {
    fbHeadlessConsole_AtEnd(console, run);
  }
  return ok;
}

// After the last step: the state if it is due at the end (or word that --save-state-at was never
// reached), the final row if the last step made none (the final state is always in the CSV), and
// how the steps ended.
static void finish_steps(fbRun *run, Outcome *o, bool ok, bool saved)
{
  const fbCli *cli = run->cli;
  fbSim *sim = run->sim;
  if (ok && o->state == OUTPUT_WRITTEN) {
    o->state = save_state(cli, sim, true, &saved);
  }
  if (ok && o->state == OUTPUT_WRITTEN && cli->save_state != NULL && !saved) {
    fprintf(stderr, "flockbox: %s: --save-state-at %ld: the run ended at step %llu, before it; nothing saved\n",
            cli->save_state, cli->save_state_at, (unsigned long long)fbSim_World(sim)->step);
    o->state = OUTPUT_NOT_WRITTEN;
  }
  if (ok && o->trace == OUTPUT_WRITTEN && cli->trace_id != 0 && !o->traced) {
    fprintf(stderr, "flockbox: --trace-step %ld: the run ran from step %llu to %llu, not through it; no trace\n",
            cli->trace_step, (unsigned long long)(fbSim_World(sim)->step - (uint64_t)run->steps),
            (unsigned long long)fbSim_World(sim)->step);
    o->trace = OUTPUT_REFUSED;
  }
  if (ok && run->steps % cli->every != 0) {
    ok = fbRun_Row(run);
  }
  if (!ok) {
    fprintf(stderr, "flockbox: %s\n", fbSim_Error(sim));
  }
  o->steps = steps_outcome(sim, ok);
}

// Closes the CSV and writes its metadata.
static void write_record(fbRun *run, Outcome *o, const fbConsole *console)
{
  char err[4096];
  bool written = fbRun_End(run);
  if (!written) {
    fprintf(stderr, "flockbox: %s: writing the CSV failed\n", run->cli->csv);
  }
  if (written && run->cli->csv != NULL && !write_meta(run, o, console, err, sizeof err)) {
    fprintf(stderr, "flockbox: %s\n", err);
    written = false;
  }
  o->record = written ? OUTPUT_WRITTEN : OUTPUT_NOT_WRITTEN;
}

// --png, through the view library, of a run whose steps and record went well.
static void write_picture(const fbRun *run, Outcome *o)
{
  char err[4096];
  const char *png = run->cli->png;
  int width, height;
  fbRender_PictureSize(run->sim, run->cli->png_width, run->cli->png_height, &width, &height);
  if (png != NULL && o->steps != STEPS_FAILED && o->record == OUTPUT_WRITTEN &&
      !fbRender_SavePng(run->sim, png, width, height, err, sizeof err)) {
    fprintf(stderr, "flockbox: %s\n", err);
    o->picture = OUTPUT_NOT_WRITTEN;
  }
}

int fbHeadless_Run(const fbCli *cli)
{
  static fbRun run;  // large; static keeps it off the stack
  Outcome outcome = {.keep_going = cli->run.keep_going};
  interrupted = 0;
  catch_interrupts();  // from the start: loading runs the scenario's Lua, which may be stuck
  if (!start_run(&run, cli, &outcome)) {
    return exit_status(&outcome);
  }
  fbSim *sim = run.sim;
  char err[1024];
  if (cli->dap_port >= 0 && !fbDap_Start(cli->dap_port, FB_DAP_WAIT_SECONDS, err, sizeof err)) {
    fprintf(stderr, "flockbox: %s\n", err);
    fbDap_End(2);
    fbRun_Free(&run);
    fbSim_Delete(sim);
    return 2;
  }
  fbSim_Profile(sim, cli->profile);
  double start = fbRun_Seconds();
  bool saved = false;
  static fbHeadlessConsole console;
  if (cli->console) {
    fbHeadlessConsole_Begin(&console, stdin, stdout, cli->break_on_error);
    fbSim_CaptureFrames(sim, cli->break_on_error);
  }
  bool ok = make_steps(&run, &outcome, start, &saved, cli->console ? &console : NULL);
  finish_steps(&run, &outcome, ok, saved);
  double elapsed = fbRun_Seconds() - start;
  write_record(&run, &outcome, cli->console ? &console.console : NULL);
  write_picture(&run, &outcome);
  if (outcome.steps != STEPS_FAILED && outcome.record == OUTPUT_WRITTEN && outcome.trace != OUTPUT_REFUSED && !cli->quiet) {
    print_summary(sim, run.steps, elapsed);
  }
  if (cli->profile) {
    print_profile(sim);
  }
  if (cli->dap_port >= 0) {
    fbDap_End(exit_status(&outcome));
  }
  fbRun_Free(&run);
  fbSim_Delete(sim);
  if (cli->console) {
    fbHeadlessConsole_End(&console);
  }
  return exit_status(&outcome);
}
