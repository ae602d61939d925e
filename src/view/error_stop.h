// error_stop.h — stop on error in the window: the state before each step kept, the step a rule failed in stopped at, and made again once the rule is fixed.
#ifndef FB_ERROR_STOP_H
#define FB_ERROR_STOP_H

#include "console.h"
#include "state.h"

/*
 * While on, the window keeps the state before the step it is about to make (a snapshot, state.h:
 * about 112 bytes per agent, overwritten each step). When a rule raises in a step, the window
 * stops after it with the rule's frame in the console (as --console --break-on-error) and keeps
 * that state: it is the moment before the failure. A rule file saved while stopped is loaded by
 * the hot reload as always; then the sim goes back to that state (the rules as they are now: the
 * fixed one) and makes the failed step again, so the fix goes on with the same run: the same
 * agents, the same step count, the same run a fixed rule would have made from the start.
 */
typedef struct fbErrorStop {
  bool on;                // the toggle: E, on at the start of a window
  bool stopped;           // stopped after a step in which a rule failed; its frame is in the console
  uint64_t failed_step;   // the step counter before that step (the state `before` is at)
  fbBytes before;         // the state before the step being made (or the failed one, while stopped)
  bool have_before;       // before holds a state (a hook's data a snapshot cannot hold: no)
  char why[512];          // why it does not: the failed step cannot be made again
} fbErrorStop;

void fbErrorStop_Init(fbErrorStop *s, bool on);
void fbErrorStop_Free(fbErrorStop *s);

// Before a step: the state now, kept while on (frames are captured only while on, too).
void fbErrorStop_BeforeStep(fbErrorStop *s, fbSim *sim);

// After a step: true when a rule failed in it (while on): then stopped, the console holding the
// frame with its agent as sel.
bool fbErrorStop_AfterStep(fbErrorStop *s, fbSim *sim, fbConsole *console);

// Once a save was loaded while stopped: sim back to the state before the failed step, with the
// rules as they are now, ready to make it again (no longer stopped, the frame dropped). False
// with the reason if it cannot (no state kept, or the reloaded scenario refuses it).
bool fbErrorStop_Rewind(fbErrorStop *s, fbSim *sim, fbConsole *console, char *err, size_t errlen);

// Going on past a failure (Space, '.') or any other move of the run: no longer stopped.
void fbErrorStop_Leave(fbErrorStop *s, fbConsole *console);

#endif
