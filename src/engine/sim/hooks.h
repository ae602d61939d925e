// hooks.h — the scenario's own Lua state: its on_step and on_key hooks, its metrics, and what its fb.* functions keep.
#ifndef FB_HOOKS_H
#define FB_HOOKS_H

#include "closest_pair.h"
#include "lua_host.h"
#include "ruleset.h"
#include "world.h"


// What a scenario's fb.* functions act on: the world they read (and whose goals, paths and
// player input they set), the rules whose weights and parameters they change, and the count of
// catches they report. The sim's own members: hooks never see the sim itself.
typedef struct fbHookTarget {
  fbWorld *world;
  fbRuleSet *rules;
  const uint64_t *catches;
} fbHookTarget;

/*
 * The scenario script runs in a sandboxed state apart from the rules' states. Its functions run
 * between steps, never during one: spawns and removals they ask for are queued and applied by the
 * simulation right after the hook returns. math.random is seeded from the run's seed, so scripts
 * may use it freely and still run the same on every thread count.
 */
typedef struct fbHooks {
  fbLuaHost host;                        // its context is the fbHooks itself
  fbHookTarget on;                       // what the fb.* functions read and change
  int on_step_ref, on_key_ref;           // LUA_NOREF when the scenario has none
  int each_pool_ref;                     // fb.each's walks, kept for reuse (LUA_NOREF: none yet)
  int metric_refs[FB_MAX_METRICS];
  char metric_names[FB_MAX_METRICS][FB_NAME_LEN];
  int metric_count;
  fbCommandQueue queue;                  // spawns and removals asked for by hooks
  bool metric_off[FB_MAX_METRICS];       // failed under --keep-going: NaN from then on
  int failures;                          // hooks and metrics switched off after failing
  char first_failure[192];               // "hook 'on_step' failed at step 12" (the first one)
  char stop_label[FB_NAME_LEN];          // fb.stop(label): the outcome that ends the run ("" if none)
  uint64_t stop_step;                    // the step at which fb.stop was called
  int *group[2];                         // fb.closest's two groups, grown and kept
  int group_capacity;
  fbClosestScratch closest;
  // The agents in id order (fb.mean, fb.centre), and what ordering them uses: a slot per id, or
  // keys to sort (id, index) when ids far outnumber agents. Grown and kept, each sim its own.
  int *ordered;
  int ordered_capacity;
  int *id_slot;
  size_t id_slots;
  uint64_t *sort_keys;
  int sort_key_capacity;
} fbHooks;

// Opens the state, its math.random seeded from `seed`, for fb.* functions working on `on`; the
// functions themselves are the scenario API's (fbScenarioApi_OpenFb sets them: scenario_api.h).
bool fbHooks_Open(fbHooks *h, fbHookTarget on, size_t memory_limit, int timeout_ms, uint64_t seed);
void fbHooks_Close(fbHooks *h);

// Takes on_step, on_key and metrics from the scenario table at index root of h->host.L.
bool fbHooks_Read(fbHooks *h, int root, const char *path, char *err, size_t errlen);

// Calls on_step(step) / on_key(name); false with the message and traceback in err if it failed.
bool fbHooks_Step(fbHooks *h, uint64_t step, char *err, size_t errlen);
bool fbHooks_Key(fbHooks *h, const char *name, char *err, size_t errlen);

// Evaluates every metric into values[]; false (message in err naming the metric) if one failed.
// With keep_going a failing metric is switched off instead (NaN from then on, noted in
// first_failure at this step) and the others are still evaluated.
bool fbHooks_Metrics(fbHooks *h, const char *path, double *values, bool keep_going, uint64_t step, char *err,
                     size_t errlen);

// Switches on_step off after it failed at this step (under --keep-going), noting it in first_failure.
void fbHooks_SwitchOffStep(fbHooks *h, uint64_t step);

// Moves a state to another address and points its fb.* functions at `on` (a scenario reload adopts
// the fresh state); from is left closed. The scratch buffers (groups, id order) stay where they are.
void fbHooks_Move(fbHooks *to, fbHooks *from, fbHookTarget on);

#endif
