// reload.h — hot reload: applying saved rule modules and scenarios to a running simulation.
#ifndef FB_RELOAD_H
#define FB_RELOAD_H

#include "sim.h"
#include "watch.h"

typedef struct fbHotReload {
  fbWatch watch;
  bool polling;       // mtime polling instead of inotify
  int reloads;        // files applied so far
  int scenario_reloads; // of which the scenario (the window then redraws its terrain)
  double last_ms;     // wall-clock time of the last reload applied (for measurements)
  char last_path[512];  // the file applied last (the window names it in its notice)
} fbHotReload;

// Starts watching the scenario's folder, the folders of every rule it uses and the rule folders it
// names. Returns false (message in err) if none of them exists.
bool fbHotReload_Open(fbHotReload *h, const fbSim *sim, bool polling, char *err, size_t errlen);
void fbHotReload_Close(fbHotReload *h);

// Applies every file whose save is complete (watch.h: at once after the editor's close or rename),
// each read while held against the next save; logs one message per reload (or its error), log.h.
// Returns how many files were applied.
int fbHotReload_Poll(fbHotReload *h, fbSim *sim, double now_ms);

// Reloads one file now (a rule module or the scenario). Returns false if it could not be applied:
// the last good version keeps running and the error is in the rule's slot or in fbSim_Error.
bool fbHotReload_Apply(fbSim *sim, const char *path);

#endif
