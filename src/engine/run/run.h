// run.h — a scenario being run: the sim, its CSV and hot reload, stepped alike headless and in the window.
#ifndef FB_RUN_H
#define FB_RUN_H

#include "cli.h"
#include "reload.h"
#include "state.h"
#include "telemetry.h"
#include "trajectory.h"

// A scenario being run: the sim, its CSV and how many steps it has made. The headless run and the
// window both step through it, so they write the same rows for the same seed.
typedef struct fbRun {
  fbSim *sim;             // NULL until fbRun_Begin has loaded it
  fbTelemetry telemetry;
  fbTrajectoryWriter trajectories;  // --trajectories
  fbHotReload reload;     // with --watch
  bool watching;
  const fbCli *cli;
  long steps;             // steps made since the start (since the loaded state, with --load-state)
  bool loaded;            // started from cli->load_state
  fbStateInfo loaded_info;  // what it said
} fbRun;

// How starting a run went; the program turns it into its exit status.
typedef enum fbRunStart {
  FB_START_RUNNING,
  FB_START_BAD_SCENARIO,  // the scenario did not load (message in err)
  FB_START_CANNOT_WRITE,  // the CSV cannot be written (message in err)
  FB_START_BAD_OUTPUT,    // an output path names a folder, a FIFO or a device (message in err)
} fbRunStart;

// Checks that every output path (--csv and its .json, --save-state, --png) is nothing yet or a
// regular file (else FB_START_BAD_OUTPUT, before anything runs), loads cli->scenario with these
// options, sets it to cli->load_state if given (a state it refuses is FB_START_BAD_SCENARIO) and
// opens cli->csv (no row yet).
fbRunStart fbRun_Begin(fbRun *run, const fbCli *cli, const fbRunOptions *options, char *err, size_t errlen);

// Writes the CSV row of the current step; false if a scenario metric failed (fbSim_Error).
bool fbRun_Row(fbRun *run);

// With --watch (always in the window): applies every saved file whose writes have settled; returns
// how many. Called before each headless step, and every frame in the window (paused or not).
int fbRun_Poll(fbRun *run);

// Makes one step, then a row when the step count is a multiple of cli->every; false if the
// scenario's hook or a metric failed (fbSim_Error).
bool fbRun_Step(fbRun *run);

// Closes the CSV (false if writing it failed) and stops watching; the sim stays loaded until
// fbSim_Delete(run->sim), and the record of reloads (run->reload.records) until fbRun_Free.
bool fbRun_End(fbRun *run);
void fbRun_Free(fbRun *run);

// Seconds on a monotonic clock (for pacing and reload debouncing, never for the simulation).
double fbRun_Seconds(void);

#endif
