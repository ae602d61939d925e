// docks.h — the window's docked panels, declared once: the name --show gives each, its key, its side and size, and how it draws.
#ifndef FB_DOCKS_H
#define FB_DOCKS_H

#include "console_dock.h"
#include "panel.h"
#include "plot.h"
#include "timeline.h"
#include "trace_dock.h"

/*
 * Every dock is one entry of fbDockTable (docks.c), and everything else reads that entry: the
 * layout (side and size rule), the keys (input.c), the key bar and the help overlay (help.c),
 * --show NAME and --show -NAME (window_options.c) and the viewer, which toggles and draws each
 * dock through the table. Adding a dock is one entry and its draw function, in docks.c.
 */

#define FB_DOCK_MAX 8  // room for docks in the arrays indexed like the table (fbDocks, fbLayout)

typedef enum fbDockSide {
  FB_DOCK_LEFT,    // a column of the full height above the key bar, from the left edge inwards
  FB_DOCK_RIGHT,   // the same from the right edge inwards
  FB_DOCK_BOTTOM,  // a band under the world, between the side docks, from the key bar upwards
} fbDockSide;

// What a dock may draw with in a frame. The viewer fills it, so that a dock never reaches into the
// viewer: a new dock that needs more than this adds a member here and fills it in viewer.c.
typedef struct fbDockFrame {
  fbHud *hud;
  fbUi *ui;                   // the frame's widgets (the parameter panel's sliders and fields)
  fbSim *sim;                 // NULL while nothing is loaded (a restart failed)
  const fbHudStatus *status;  // the info dock's lines
  int selected;               // index of the inspected agent, -1 if none
  double px_per_accel;        // scale of the inspected agent's arrows
  fbParamPanel *panel;
  fbPlots *plots;             // the live plots (their scroll changes as they are drawn)
  int *info_tab;              // the info dock's tab: 0 status, 1 about (a click on a tab changes it)
  int *info_scroll;           // how far the status and inspector are scrolled up, pixels (the wheel)
  fbTimeline *timeline;       // the snapshots and the step; a click on the timeline asks for a step there
  fbConsoleDock *console;     // the console's input line, scroll-back and history
  fbTraceDock *trace;         // the last trace of the selected agent's step
  uint32_t selected_id;       // the inspected agent's id, 0 if none (the trace dock names it)
  const char *program;        // argv[0] as the program was run: what the About tab's "Try:" lines name
} fbDockFrame;

typedef struct fbDock {
  const char *name;      // in --show: NAME opens it at the start, -NAME closes it
  const char *title;     // what it is, as --help names it ("the info panel")
  SDL_Keycode key;       // opens and closes it, with or without Shift
  const char *key_name;  // that key as the key bar and the help overlay write it
  const char *brief;     // in the key bar
  const char *meaning;   // in the help overlay
  fbDockSide side;
  // Its width (left, right: a share of the window's width) or height (bottom: a share of the height
  // above the key bar), clamped to a readable minimum and a maximum; fbLayout_Compute shrinks it
  // further when the world would get too little.
  int percent, min_px, max_px;
  bool open;             // at the start, unless --show says otherwise
  void (*draw)(const fbDockFrame *f, SDL_Rect area);
} fbDock;

extern const fbDock fbDockTable[];
extern const int fbDockCount;

// Which docks are open, indexed like fbDockTable.
typedef struct fbDocks {
  bool open[FB_DOCK_MAX];
} fbDocks;

// Each dock open or closed as its entry says.
fbDocks fbDocks_Default(void);

// The index of the dock called name (as --show writes it), or -1.
int fbDock_Find(const char *name);

// The index of the dock that key opens and closes, or -1.
int fbDock_ForKey(SDL_Keycode key);

#endif
