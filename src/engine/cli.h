// cli.h — the command line: options and help text, for a headless or windowed run.
#ifndef FB_CLI_H
#define FB_CLI_H

#include "sim.h"

// What --show opens in the window at the start.
enum {
  FB_SHOW_PLOTS = 1 << 0,
  FB_SHOW_PARAMS = 1 << 1,
  FB_SHOW_HELP = 1 << 2,
  FB_SHOW_TRAILS = 1 << 3,
  FB_SHOW_LIST = 1 << 4,
  FB_HIDE_INFO = 1 << 5,   // "-info": the info dock starts closed
};

typedef struct fbCli {
  const char *scenario;   // or, with --rules, the rule folder (default: behaviours/)
  bool headless;
  long steps;             // headless: steps to run; window: stop stepping after this many if steps_given
  bool steps_given;       // --steps was on the command line
  const char *csv;        // CSV telemetry file
  long every;             // a CSV row every K steps
  const char *png;        // picture of the final frame
  const char *record;     // window: pipe frames to ffmpeg
  bool watch;             // hot reload of rules and scenarios
  long frames;            // window: quit after N frames (tests); 0 = run until closed
  const char *shot;       // window: save the whole window (panels and all) after the last frame
  int window_w, window_h; // window: its size at the start (--size WxH; default 1280x800)
  unsigned show;          // window: what is open at the start (--show), FB_SHOW_* bits
  long inspect;           // window: the agent id selected at the start (--inspect), 0 = none
  bool quiet;             // no summary line
  long pace;              // headless: at most this many steps per second (0 = as fast as possible)
  bool poll_files;        // --watch by polling mtimes instead of inotify
  int rules;              // --rules (1) or --rules-md (2): list the rules of a folder instead of running
  bool check_determinism; // --check-determinism: run 3 ways and report the first difference
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

fbCliResult fbCli_Parse(fbCli *cli, int argc, char **argv, char *err, size_t errlen);

void fbCli_PrintHelp(FILE *out);

#endif
