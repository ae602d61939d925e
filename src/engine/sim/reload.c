// reload.c — hot reload: a saved rule module or scenario takes effect on the next step, agents kept.
#define _GNU_SOURCE
#include "reload.h"

#include "log.h"
#include "sha256.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * What a reload keeps and what it changes.
 * - The steering library, or a helper module beside the rules (one they may require): every rule
 *   is reloaded, each as if it had been saved, with the library loaded again first.
 * - A rule module: every Lua state loads the new file; its params are again its defaults under the
 *   scenario's overrides (so new defaults apply where the scenario set nothing). Until the new
 *   version has run one step cleanly the old one is kept, and a failure goes back to it. Agents,
 *   their fields, the step counter and the random streams are untouched.
 * - The scenario: the script runs again into a complete new world description with fresh Lua
 *   states (a bad save changes nothing). Then its world size, terrain, obstacles, goals, species
 *   parameters and rule lists replace the running ones, while the agents stay where they are with
 *   their ids, velocities, energy and fields (matched by name; new fields start at their
 *   defaults). Agents of a species the script no longer has are removed; a new species gets its
 *   agents on restart (R), since spawning runs only then. Hooks and metrics start from the new
 *   script's state.
 */

static bool same_file(const char *a, const char *b)
{
  char ra[PATH_MAX], rb[PATH_MAX];
  return realpath(a, ra) != NULL && realpath(b, rb) != NULL && strcmp(ra, rb) == 0;
}

// ---- scenario reload ----------------------------------------------------------------------------

static bool reload_scenario(fbSim *sim)
{
  if (!fbSim_ReloadScenario(sim)) {
    fbLog(FB_LOG_WARNING, "scenario reload failed, the last good version keeps running: %s", fbSim_ReloadError(sim));
    return false;
  }
  const fbWorld *w = fbSim_World(sim);
  fbLog(FB_LOG_INFO, "reloaded scenario %s at step %llu (%d agents kept)", fbSim_Path(sim),
        (unsigned long long)w->step, w->agents.count);
  return true;
}

// The folder of a file ("." when it has none).
static void folder_of(const char *path, char *out, size_t len)
{
  const char *slash = strrchr(path, '/');
  snprintf(out, len, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
}

// The steering library, or a Lua file in the folder of a rule or of the library that is no rule
// of this scenario: a helper module some rule may require. Any rule may have it in its state.
static bool is_module_beside_rules(const fbSim *sim, const char *path)
{
  size_t n = strlen(path);
  if (n < 5 || strcmp(path + n - 4, ".lua") != 0 || access(path, R_OK) != 0) {
    return false;
  }
  if (same_file(path, fbSim_LibraryPath(sim))) {
    return true;
  }
  char folder[512], other[512];
  folder_of(path, folder, sizeof folder);
  folder_of(fbSim_LibraryPath(sim), other, sizeof other);
  if (same_file(folder, other)) {
    return true;
  }
  for (int s = 0; s < fbSim_World(sim)->species_count; ++s) {
    for (int k = 0; k < fbSim_World(sim)->species[s].rule_count; ++k) {
      const char *rule = fbSim_RulePath(sim, s, k);
      if (rule[0] != '\0') {
        folder_of(rule, other, sizeof other);
        if (same_file(folder, other)) {
          return true;
        }
      }
    }
  }
  return false;
}

typedef enum Outcome { NOT_OURS, APPLIED, REFUSED } Outcome;

static Outcome outcome(bool ok) { return ok ? APPLIED : REFUSED; }

// Applies the file if it is one of the sim's: the scenario, a rule module, the library or a helper.
static Outcome apply(fbSim *sim, const char *path)
{
  if (same_file(path, fbSim_Path(sim))) {
    return outcome(reload_scenario(sim));
  }
  bool any = false, ok = true;
  for (int s = 0; s < fbSim_World(sim)->species_count; ++s) {
    for (int k = 0; k < fbSim_World(sim)->species[s].rule_count; ++k) {
      const char *slot_path = fbSim_RulePath(sim, s, k);
      if (slot_path[0] == '\0') {
        continue;  // a native rule has no file
      }
      // A deleted file no longer resolves: compare names then, to warn that its last version stays.
      bool match = same_file(path, slot_path) ||
                   (access(path, F_OK) != 0 && strcmp(strrchr(path, '/') ? strrchr(path, '/') : path,
                                                      strrchr(slot_path, '/') ? strrchr(slot_path, '/') : slot_path) == 0);
      if (match) {
        any = true;
        ok = fbSim_ReloadRule(sim, s, k) && ok;
      }
    }
  }
  if (!any && is_module_beside_rules(sim, path)) {
    return outcome(fbSim_ReloadAll(sim));
  }
  return any ? outcome(ok) : NOT_OURS;
}

bool fbHotReload_Apply(fbSim *sim, const char *path) { return apply(sim, path) == APPLIED; }

// Notes a save in the run's record: its step, file, content's SHA-256 (read while the file is held
// against the next save, so it is what was loaded) and whether it loaded. Past FB_MAX_RELOAD_RECORDS
// only the count of those left out grows.
static void record(fbHotReload *h, const fbSim *sim, const char *path, bool loaded)
{
  if (h->record_count == FB_MAX_RELOAD_RECORDS) {
    h->records_left_out++;
    return;
  }
  if (h->record_count == h->record_capacity) {
    int capacity = h->record_capacity ? 2 * h->record_capacity : 16;
    fbReloadRecord *grown = realloc(h->records, (size_t)capacity * sizeof *grown);
    if (grown == NULL) {
      h->records_left_out++;
      return;
    }
    h->records = grown;
    h->record_capacity = capacity;
  }
  fbReloadRecord *r = &h->records[h->record_count++];
  r->step = (long)fbSim_World(sim)->step;
  snprintf(r->path, sizeof r->path, "%.*s", (int)sizeof r->path - 1, path);
  fbSha256_File(path, r->sha256);
  r->loaded = loaded;
}

// ---- watching -----------------------------------------------------------------------------------

// Watches the folder a file lives in.
static void watch_folder_of(fbWatch *w, const char *path)
{
  char dir[512];
  folder_of(path, dir, sizeof dir);
  fbWatch_AddDir(w, dir);
}

// Watches the folders a sim's files live in: the scenario's, the rule folders it names, each
// rule's. Called again after a scenario reload, which may name new ones (folders already watched
// are skipped, and reopening the watch would be slow: closing an inotify descriptor waits for
// the kernel's grace period).
static void watch_sim_folders(fbWatch *w, const fbSim *sim)
{
  watch_folder_of(w, fbSim_Path(sim));
  if (fbSim_LibraryPath(sim)[0] != '\0') {
    watch_folder_of(w, fbSim_LibraryPath(sim));
  }
  int folders = 0;
  const char(*folder)[512] = fbSim_RuleFolders(sim, &folders);
  for (int d = 0; d < folders; ++d) {
    fbWatch_AddDir(w, folder[d]);
  }
  for (int s = 0; s < fbSim_World(sim)->species_count; ++s) {
    for (int k = 0; k < fbSim_World(sim)->species[s].rule_count; ++k) {
      if (fbSim_RulePath(sim, s, k)[0] != '\0') {
        watch_folder_of(w, fbSim_RulePath(sim, s, k));
      }
    }
  }
}

bool fbHotReload_Open(fbHotReload *h, const fbSim *sim, bool polling, char *err, size_t errlen)
{
  memset(h, 0, sizeof *h);
  h->polling = polling;
  fbWatch_Open(&h->watch, polling);
  watch_sim_folders(&h->watch, sim);
  if (h->watch.dir_count == 0) {
    snprintf(err, errlen, "--watch: none of the scenario's folders exists");
    fbWatch_Close(&h->watch);
    return false;
  }
  return true;
}

void fbHotReload_Close(fbHotReload *h) { fbWatch_Close(&h->watch); }

void fbHotReload_FreeRecords(fbHotReload *h)
{
  free(h->records);
  h->records = NULL;
  h->record_count = h->record_capacity = 0;
}

int fbHotReload_Poll(fbHotReload *h, fbSim *sim, double now_ms)
{
  char changed[16][512];
  int n = fbWatch_Poll(&h->watch, now_ms, changed, 16);
  int applied = 0;
  bool scenario = false;
  for (int k = 0; k < n; ++k) {
    bool is_scenario = same_file(changed[k], fbSim_Path(sim));
    scenario = scenario || is_scenario;
    Outcome done = apply(sim, changed[k]);
    if (done != NOT_OURS) {
      record(h, sim, changed[k], done == APPLIED);
    }
    if (done == APPLIED) {
      applied++;
      h->reloads++;
      h->scenario_reloads += is_scenario;
      h->last_ms = now_ms;
      snprintf(h->last_path, sizeof h->last_path, "%.*s", (int)sizeof h->last_path - 1, changed[k]);
    }
  }
  fbWatch_Release(&h->watch);  // writers waiting on the files just read go on
  if (scenario) {
    watch_sim_folders(&h->watch, sim);
  }
  return applied;
}
