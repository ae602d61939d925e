// sim.h — a running scenario: the world, its Lua states and worker threads, and the fixed step.
#ifndef FB_SIM_H
#define FB_SIM_H

#include "lua_host.h"
#include "rules.h"
#include "world.h"

#define FB_MAX_THREADS 16
#define FB_MAX_METRICS 16
#define FB_MAX_SETS 64

typedef struct fbRunOptions {
  uint64_t seed;
  int threads;                     // worker threads (each with its own Lua state); results do not depend on it
  const char *sets[FB_MAX_SETS];   // --set NAME=VALUE overrides, applied to the scenario table
  int set_count;
  size_t lua_memory;               // bytes per Lua state
  int lua_timeout_ms;              // a rule or hook making no progress this long is stopped
  bool headless;
  bool no_spawn;                   // build the world without agents (a scenario reload keeps the old ones)
} fbRunOptions;

void fbRunOptions_Default(fbRunOptions *o);

// Wall-clock cost of the last step's phases, for the HUD (never used by the simulation itself).
typedef struct fbStepCost {
  double grid_ms, rules_ms, integrate_ms, hooks_ms, total_ms;
} fbStepCost;

typedef struct fbSim {
  fbWorld world;
  fbRunOptions options;
  char path[512];                  // the scenario file
  char name[128];                  // its display name
  fbGrid grid;
  fbAggregates agg;
  fbPerceptionInput perception;
  fbVision vision[FB_MAX_SPECIES];
  int threads;
  fbRuleRunner *runners;           // one per thread
  fbNeighbourList lists[FB_MAX_THREADS];
  fbCommandQueue queues[FB_MAX_THREADS];
  fbLuaHost scenario;              // the scenario script's own state: hooks and metrics run here
  int scenario_ref;                // the table the script returned
  int on_step_ref;
  int on_key_ref;
  uint32_t inspect_id;
  int metric_refs[FB_MAX_METRICS];
  char metric_names[FB_MAX_METRICS][FB_NAME_LEN];
  int metric_count;
  fbCommandQueue scenario_queue;   // spawns and removals asked for by hooks
  uint64_t catches;                // removals asked for by agents (predators) that took effect
  fbStepCost cost;
  char error[2048];                // the last scenario error (hooks), for the HUD
  char reload_error[2048];         // why the last scenario save could not be applied ("" once one is)
} fbSim;

// Loads and validates the scenario, builds the world and spawns its agents. On failure writes one
// message naming the file and the field into err; the sim is then freed and must not be stepped.
bool fbSim_Load(fbSim *sim, const char *path, const fbRunOptions *options, char *err, size_t errlen);
void fbSim_Free(fbSim *sim);

// One fixed step: grid, perception and rules (in parallel), integration, commands, then the
// scenario's on_step hook. Returns false if the hook failed (message in sim->error).
bool fbSim_Step(fbSim *sim);

// Records each rule's output for the agent with this id from the next step on (0: none).
void fbSim_Inspect(fbSim *sim, uint32_t id);

// The output of rule k for the inspected agent in the last step; false if it did not run.
bool fbSim_InspectOutput(const fbSim *sim, int rule, fbVec2 *out);

// Passes a key the viewer does not use to the scenario's on_key(name) hook (SDL key names, e.g. "A",
// "Left"). Returns false if the hook failed (message in sim->error).
bool fbSim_Key(fbSim *sim, const char *name);

// FNV-1a hash over every agent's id, position and velocity: equal hashes mean equal runs.
uint64_t fbSim_Hash(const fbSim *sim);

// Evaluates the scenario's metrics into values[]; false (message in sim->error) if one failed.
bool fbSim_Metrics(fbSim *sim, double *values);

#endif
