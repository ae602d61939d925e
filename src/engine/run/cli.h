// cli.h — the engine's command line: options and help text of a run; a program adds its own (the window's: window_options.h).
#ifndef FB_CLI_H
#define FB_CLI_H

#include "sim.h"

typedef struct fbCli {
  const char *scenario;   // or, with --rules and --new-rule, the rule folder (default: behaviours/)
  bool headless;
  long steps;             // headless: steps to run; window: stop stepping after this many if steps_given
  bool steps_given;       // --steps was on the command line
  const char *csv;        // CSV telemetry file
  long every;             // a CSV row every K steps
  const char *trajectories;  // --trajectories FILE: every agent's positions (trajectory.h)
  long trajectories_every;   // a frame every N world steps
  const char *png;        // picture of the final frame
  int png_width;          // --png-size W or WxH: the box the picture fits with the world's aspect
  int png_height;         // (0: no bound that way; both 0: 1024x1024, fbRender_PictureSize)
  bool watch;             // hot reload of rules and scenarios
  bool quiet;             // no summary line
  long pace;              // headless: at most this many steps per second (0 = as fast as possible)
  bool poll_files;        // --watch by polling mtimes instead of inotify
  int rules;              // --rules (1) or --rules-md (2): list the rules of a folder instead of running
  bool check_determinism; // --check-determinism: run 3 ways and report the first difference
  bool profile;           // --profile: time each rule; headless prints the table and records it
  const char *new_rule;   // --new-rule NAME: write a starting rule module (into the folder in scenario)
  const char *save_state; // --save-state FILE: the run's state after its last step (or at save_state_at)
  long save_state_at;     // --save-state-at N: at world step N instead (-1: after the last step)
  const char *load_state; // --load-state FILE: start from this state (state.h)
  bool console;           // --console: headless, reading console lines from standard input between steps
  bool break_on_error;    // --break-on-error (with --console): stop in the console after a step where a rule failed
  int dap_port;           // --dap PORT: serve the Debug Adapter Protocol on 127.0.0.1 (-1: no)
  uint32_t trace_id;      // --trace ID: trace this agent's rules (0: no trace)
  long trace_step;        // --trace-step N: at the step that starts at world step N (default 0)
  const char *trace_out;  // --trace-out FILE: the trace's file (NULL: standard output)
  fbRunOptions run;
} fbCli;

// What the command line asks for; the program prints the help or the version and picks the exit
// status (the engine writes nothing of its own).
typedef enum fbCliResult {
  FB_CLI_RUN,      // run cli->scenario (or list rules, check determinism)
  FB_CLI_HELP,     // --help
  FB_CLI_VERSION,  // --version
  FB_CLI_BAD,      // a bad argument, message in err
} fbCliResult;


// Options a program adds to the engine's (the window adds --show, --size, ...), which the engine
// parses without knowing them: their help lines go after the engine's options for a run, and every
// OPTION VALUE the engine does not know is offered to parse, which returns 0 if it took it, 2 if it
// refused the value (message in err), -1 if the option is not its own.
typedef struct fbCliMore {
  const char *help;
  int (*parse)(void *ctx, const char *opt, const char *value, char *err, size_t errlen);
  void *ctx;
} fbCliMore;

// more may be NULL: the engine's options alone.
fbCliResult fbCli_Parse(fbCli *cli, int argc, char **argv, const fbCliMore *more, char *err, size_t errlen);

// The help, with more_help (may be NULL) among the options.
void fbCli_PrintHelp(FILE *out, const char *more_help);

// text as a whole number from lo to hi for option opt; false with the message the engine's own
// numeric options give ("--steps: expected a whole number from 0 to ..., got 'x'"). 64 bits on
// every platform (a `long` is 32 bits on wasm32, too few for --seed).
bool fbCli_ParseLong(const char *opt, const char *text, long long lo, long long hi, long long *out, char *err,
                     size_t errlen);

#endif
