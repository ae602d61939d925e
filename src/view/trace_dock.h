// trace_dock.h — the window's trace dock: the selected agent's next step traced (fbSim_Trace) into lines the dock scrolls through.
#ifndef FB_TRACE_DOCK_H
#define FB_TRACE_DOCK_H

#include "hud.h"
#include "sim.h"
#include "widgets.h"

#define FB_TRACE_DOCK_MAX_LINES 12000  // the engine's trace stops at 10 000 lines and says how many more

/*
 * What the trace dock holds between frames: the lines of the last trace and which agent and step
 * they tell of. A trace is asked for (the dock opening, a step with '.', another agent selected)
 * and made by the next step the viewer makes: fbTraceDock_BeforeStep points fbSim_Trace at the
 * dock's buffer for that one step, fbTraceDock_AfterStep points it away again. Between asks no
 * step is traced, so an open dock costs a running world nothing; and a trace only reads, so the
 * run is the same with it.
 */
typedef struct fbTraceDock {
  char **lines;      // the trace, a line each (without the newline)
  int line_count, line_cap;
  int dropped;       // lines past FB_TRACE_DOCK_MAX_LINES
  bool asked;        // trace the next step
  bool tracing;      // the step being made is traced
  uint32_t agent;    // whose trace the lines are (0: none yet)
  uint64_t step;     // the world step the traced step started at
  int scroll;        // the first line shown
  int page;          // lines Page Up/Down move: what the dock showed last frame
} fbTraceDock;

void fbTraceDock_Init(fbTraceDock *d);
void fbTraceDock_Free(fbTraceDock *d);

// Asks for a trace of the next step.
void fbTraceDock_Ask(fbTraceDock *d);

// Before each step the viewer makes: with the dock open and agent `selected` (an id, 0: none)
// inspected, traces this step when one was asked for or another agent is selected than the lines
// tell of. After the step, fbTraceDock_AfterStep stops the trace.
void fbTraceDock_BeforeStep(fbTraceDock *d, fbSim *sim, bool open, uint32_t selected);
void fbTraceDock_AfterStep(fbTraceDock *d, fbSim *sim);

// Page Up / Page Down, while the dock is open: a page up or down. True if it took the key.
bool fbTraceDock_Key(fbTraceDock *d, const SDL_Event *e);

// Draws the trace into area, clipped to it, from line d->scroll; the wheel scrolls. Without a
// selected agent (selected 0), says how to select one.
void fbTraceDock_Draw(fbTraceDock *d, fbHud *hud, fbUi *ui, SDL_Rect area, uint32_t selected);

#endif
