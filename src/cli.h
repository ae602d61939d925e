// cli.h — the command line: options, help text, the run loop shared with the window, and the headless run.
#ifndef FB_CLI_H
#define FB_CLI_H

#include "reload.h"
#include "sim.h"
#include "telemetry.h"

typedef struct fbCli {
  const char *scenario;
  bool headless;
  long steps;             // headless: steps to run; window: stop stepping after this many if steps_given
  bool steps_given;       // --steps was on the command line
  const char *csv;        // CSV telemetry file
  long every;             // a CSV row every K steps
  const char *png;        // picture of the final frame
  const char *record;     // window: pipe frames to ffmpeg
  bool watch;             // hot reload of rules and scenarios
  long frames;            // window: quit after N frames (tests); 0 = run until closed
  bool quiet;             // no summary line
  long pace;              // headless: at most this many steps per second (0 = as fast as possible)
  bool poll_files;        // --watch by polling mtimes instead of inotify
  fbRunOptions run;
} fbCli;

// Returns 0 to run, 1 after printing help or the version (exit 0), 2 on a bad argument (message in err).
int fbCli_Parse(fbCli *cli, int argc, char **argv, char *err, size_t errlen);

void fbCli_PrintHelp(FILE *out);

// A scenario being run: the sim, its CSV and how many steps it has made. The headless run and the
// window both step through it, so they write the same rows for the same seed.
typedef struct fbRun {
  fbSim sim;
  fbTelemetry telemetry;
  fbHotReload reload;     // with --watch
  bool watching;
  const fbCli *cli;
  long steps;             // steps made since the start
} fbRun;

// Loads cli->scenario with these options and opens cli->csv (no row yet). Returns 0, or the exit
// status with one message in err: 2 if the scenario is bad, 1 if the CSV cannot be written.
int fbRun_Begin(fbRun *run, const fbCli *cli, const fbRunOptions *options, char *err, size_t errlen);

// Writes the CSV row of the current step; false if a scenario metric failed (sim.error).
bool fbRun_Row(fbRun *run);

// With --watch (always in the window): applies every saved file whose writes have settled; returns
// how many. Called before each headless step, and every frame in the window (paused or not).
int fbRun_Poll(fbRun *run);

// Makes one step, then a row when the step count is a multiple of cli->every; false if the
// scenario's hook or a metric failed (sim.error).
bool fbRun_Step(fbRun *run);

// Closes the CSV (false if writing it failed); the sim stays loaded until fbSim_Free(&run->sim).
bool fbRun_End(fbRun *run);

// Runs the scenario with no display; returns the process exit status.
int fbCli_RunHeadless(const fbCli *cli);

#endif
