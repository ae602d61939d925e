// window_options.h — the window's command-line options (--frames, --record, --inspect, --shot, --size, --show, --rewind-mb), added to the engine's.
#ifndef FB_WINDOW_OPTIONS_H
#define FB_WINDOW_OPTIONS_H

#include "cli.h"
#include "docks.h"

// What --show opens in the window at the start, besides the docks.
enum {
  FB_SHOW_HELP = 1 << 0,
  FB_SHOW_TRAILS = 1 << 1,
  FB_SHOW_LIST = 1 << 2,
  FB_SHOW_ABOUT = 1 << 3,  // the info dock on its About tab
};

typedef struct fbWindowOptions {
  const char *record;      // pipe frames to ffmpeg
  long frames;             // quit after N frames (tests); 0 = run until closed
  const char *shot;        // save the whole window (panels and all) after the last frame
  int width, height;       // its size at the start (--size WxH; 0: 1280x800)
  unsigned show;           // what is open at the start (--show), FB_SHOW_* bits
  fbDocks docks;           // the docks open at the start: the dock table's defaults, changed by --show
  long long inspect;       // the agent id selected at the start (--inspect), 0 = none
  long rewind_mb;          // the rewind snapshots' memory budget in MB (--rewind-mb; 0: no rewind)
  const char *program;     // argv[0], as the program was run ("build/flockbox"), or NULL
} fbWindowOptions;

// The program's command line: the engine's options (fbCli_Parse) with the window's added. Returns as
// fbCli_Parse does; the program prints the help (fbCli_PrintHelp with fbWindowOptions_Help()).
fbCliResult fbWindowOptions_Parse(fbCli *cli, fbWindowOptions *window, int argc, char **argv, char *err,
                                  size_t errlen);

// The help lines of the window's options, for fbCli_PrintHelp.
const char *fbWindowOptions_Help(void);

#endif
