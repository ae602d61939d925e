// reload.h — hot reload: applying saved rule modules and scenarios to a running simulation.
#ifndef FB_RELOAD_H
#define FB_RELOAD_H

#include "sim.h"
#include "watch.h"

// One save the run saw, for its record (run_meta.h): what it was and whether it loaded.
typedef struct fbReloadRecord {
  long step;          // the step it was applied before
  char path[512];
  char sha256[65];    // of the content read ("" if it could not be read: a deleted file)
  bool loaded;        // false: refused (a syntax error, a bad scenario); the last good version ran on
} fbReloadRecord;

#define FB_MAX_RELOAD_RECORDS 100000

typedef struct fbHotReload {
  fbWatch watch;
  bool polling;       // mtime polling instead of inotify
  int reloads;        // files applied so far
  int scenario_reloads; // of which the scenario (the window then redraws its terrain)
  double last_ms;     // wall-clock time of the last reload applied (for measurements)
  char last_path[512];  // the file applied last (the window names it in its notice)
  fbReloadRecord *records;  // every save of the sim's files seen, applied or refused, in order
  int record_count, record_capacity;
  long records_left_out;    // past FB_MAX_RELOAD_RECORDS
} fbHotReload;

// Starts watching the scenario's folder, the folders of every rule it uses and the rule folders it
// names. Returns false (message in err) if none of them exists.
bool fbHotReload_Open(fbHotReload *h, const fbSim *sim, bool polling, char *err, size_t errlen);
// Stops watching; the record of saves stays until fbHotReload_FreeRecords (the run's metadata,
// written after the run ends, lists it).
void fbHotReload_Close(fbHotReload *h);
void fbHotReload_FreeRecords(fbHotReload *h);

// Applies every file whose save is complete (watch.h: at once after the editor's close or rename),
// each read while held against the next save; logs one message per reload (or its error), log.h.
// Returns how many files were applied.
int fbHotReload_Poll(fbHotReload *h, fbSim *sim, double now_ms);

// Reloads one file now (a rule module or the scenario). Returns false if it could not be applied:
// the last good version keeps running and the error is in the rule's slot or in fbSim_Error.
bool fbHotReload_Apply(fbSim *sim, const char *path);

#endif
