// run_meta.h — a run's metadata side file (FILE.csv.json): what made the CSV and how the run ended.
#ifndef FB_RUN_META_H
#define FB_RUN_META_H

#include "console.h"
#include "reload.h"
#include "sim.h"

// How a headless run went, as its metadata reports it.
typedef struct fbRunMeta {
  const char *scenario;          // the path as given on the command line
  long steps_requested;          // --steps
  long steps;                    // steps made
  long every;                    // a CSV row every this many steps
  const char *status;            // "complete", "incomplete", "failed" or "interrupted"
  int exit_status;
  const char *error;             // why a failed run stopped ("" otherwise)
  const fbHotReload *reload;     // with --watch: the saves seen (NULL: none watched)
  const char *loaded_state;      // --load-state: the file the run started from (NULL: none)
  uint64_t loaded_step;          // the step it was saved at
  bool loaded_rules_differ;      // a rule file changed since it was saved
  const fbConsole *console;      // --console: the lines that ran (NULL: no console)
} fbRunMeta;

/*
 * Writes the metadata of sim's run to path as JSON, one key per line, atomically (a temporary
 * file renamed over path): a reader never sees half of it, and a sweep that finds it knows the run
 * ended. It records the flockbox version, the scenario's path and SHA-256, the SHA-256 of each
 * rule module, the steering library and the terrain image it read, the seed, every --set, dt, the
 * worker threads, every save reloaded or refused under --watch (step, file, SHA-256, loaded), every console line that ran
 * (step, line, ok; with --console only), the steps asked for and made, the status, the lost rules or hooks, the outcome
 * (fb.stop's label, or "step_limit" when the run used all its steps) and the hash of the final
 * state. False with a message in err if it cannot be written.
 */
bool fbRunMeta_Write(const char *path, const fbSim *sim, const fbRunMeta *m, char *err, size_t errlen);

#endif
