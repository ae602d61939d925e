// sim.h — a running scenario: the world, its rules in every thread's Lua state, the scenario's hooks, and the fixed step.
#ifndef FB_SIM_H
#define FB_SIM_H

#include "bodies.h"
#include "defs.h"
#include "hooks.h"
#include "ruleset.h"
#include "workers.h"

// Wall-clock cost of the last step's phases, for the HUD (never used by the simulation itself).
typedef struct fbStepCost {
  double grid_ms, rules_ms, integrate_ms, bodies_ms, hooks_ms, total_ms;
} fbStepCost;

// fbRunOptions, how a sim is run (seed, threads, --set, Lua limits), is public: flockbox.h.

typedef struct fbSim {
  fbWorld world;                   // what a step reads and writes: agents, species, terrain, obstacles
  fbGrid grid;
  fbAggregates agg;
  fbPerceptionInput perception;
  fbVision vision[FB_MAX_SPECIES];
  int threads;
  fbWorkers workers;
  fbNeighbourList lists[FB_MAX_THREADS];
  fbCommandQueue queues[FB_MAX_THREADS];
  fbBodies bodies;                 // pushing overlapping bodies apart after integration
  uint32_t solid;                  // species whose bodies collide, this step
  double travel[FB_MAX_THREADS];   // per worker: the farthest an agent of its range moved this phase
  int touching[FB_MAX_THREADS];    // per worker: bodies of its range that overlap another
  uint32_t keep_list, keep_nearest;  // species whose rules walk flock-mates / read the nearest distance
  fbRuleSet rules;                 // every rule in every thread's Lua state
  fbHooks hooks;                   // the scenario's own state: on_step, on_key, metrics
  fbRunOptions options;
  fbSpeciesDef *species_defs;      // each species as described (as written, -1 where derived), on the
                                   // heap: what a live change (live.h) rebuilds the species from
  uint32_t inspect_id;
  uint64_t catches;                // removals asked for by agents (predators) that took effect
  fbStepCost cost;
  fbNeighbourList seen;            // fbSim_Seen: whom one agent sees now (the viewer's neighbour lines)
  uint32_t seen_id;                // whose list `seen` is (0: nobody's)
  // Cold: where it came from and what went wrong, for messages and the HUD.
  char path[512];                  // the scenario file ("" for a world built in C)
  char name[128];                  // its display name
  char error[2048];                // the last scenario error (hooks, metrics)
  char reload_error[2048];         // why the last scenario save could not be applied ("" once one is)
} fbSim;

// Builds the world d describes, loads its rules into every thread's state and spawns its agents
// (unless options->no_spawn). d's obstacles move into the world; d stays the caller's to delete.
// On failure writes one message naming the file and the field; the sim is then freed.
bool fbSim_Create(fbSim *sim, fbScenarioDef *d, const fbRunOptions *options, char *err, size_t errlen);

// Runs the scenario script, reads its table into a description, applies the --set overrides and
// creates the sim from it, hooks and metrics included. On failure as fbSim_Create.
bool fbSim_Load(fbSim *sim, const char *path, const fbRunOptions *options, char *err, size_t errlen);

// As fbSim_Load, for a scenario reload of `running`: a rule whose file does not load (broken, empty,
// mid-save) is loaded from the last good version running holds, with the file's error kept on the
// rule, so a good scenario save applies while a rule file is broken.
bool fbSim_LoadReplacing(fbSim *fresh, const fbSim *running, const fbRunOptions *options, char *err, size_t errlen);

void fbSim_Free(fbSim *sim);

// fbSim_Step (flockbox.h), one fixed step: grid, perception and rules (in parallel), integration,
// overlapping bodies pushed apart, the path objects, commands, then the scenario's on_step hook.

// Sorts the agents by grid cell for their current positions (a step does it first; telemetry and
// the viewer do it before asking where agents are) and sets up perception. Agents move in
// storage, never in what they compute: indices change, ids stay.
void fbSim_UpdateGrid(fbSim *sim);

// Whom agent i sees now, exactly as its perception would: into sim->seen (index, offset and
// distance of each), in perception's order; returns how many. Call fbSim_UpdateGrid first when
// agents may have moved since the last step or grid update.
int fbSim_Seen(fbSim *sim, int i);

// Records each rule's output for the agent with this id from the next step on (0: none).
void fbSim_Inspect(fbSim *sim, uint32_t id);

// The output of rule k for the inspected agent in the last step; false if it did not run.
bool fbSim_InspectOutput(const fbSim *sim, int rule, fbVec2 *out);

// Passes a key the viewer does not use to the scenario's on_key(name) hook (SDL key names, e.g. "A",
// "Left"). Returns false if the hook failed (message in sim->error).
bool fbSim_Key(fbSim *sim, const char *name);

// fbSim_Hash (flockbox.h): FNV-1a over every agent's id, position and velocity.

// What the run has lost: how many rules were switched off and hooks or metrics failed (and were
// switched off under --keep-going), with the first of them described in what, e.g. "rule
// 'predator' of species 'predator' switched off at step 0 (and others)". 0: nothing lost.
int fbSim_Lost(const fbSim *sim, char *what, size_t len);

// The outcome a hook gave with fb.stop(label), and its time in seconds; NULL if none yet.
const char *fbSim_Outcome(const fbSim *sim, double *time);

// Evaluates the scenario's metrics into values[]; false (message in sim->error) if one failed.
bool fbSim_Metrics(fbSim *sim, double *values);

// ---- the rules, as the panel, hooks and hot reload reach them ----------------------------------

const char *fbSim_RuleName(const fbSim *sim, int s, int k);
const char *fbSim_RuleModule(const fbSim *sim, int s, int k);
const char *fbSim_RuleError(const fbSim *sim, int s, int k);   // "" when it runs fine
// fbSim_FindRule, fbSim_SetWeight and fbSim_SetParam: flockbox.h.

// Species s as its description gave it (after --set and live changes): values as written, negative
// where a field is derived from others.
const fbSpeciesDef *fbSim_SpeciesDef(const fbSim *sim, int s);

// A rule's parameter as its module declares it (default, range, description); NULL if none.
const fbParamSpec *fbSim_ParamSpec(const fbSim *sim, int s, int k, const char *name);
// The rule's numeric parameters, sorted by name; returns how many (at most max).
int fbSim_ListParams(const fbSim *sim, int s, int k, char names[][FB_NAME_LEN], double *values, int max);
// The rule's parameter table as Lua text.
void fbSim_WriteParams(const fbSim *sim, int s, int k, FILE *out);

// Loads rule k of species s again from its file (a save): the last good version stays until the
// new one has run a step cleanly. False with the message in fbSim_RuleError if it did not load.
bool fbSim_ReloadRule(fbSim *sim, int s, int k);

// Loads the steering library again, then every rule, each as if saved: after a save of the
// library or of a helper module rules require. False if anything failed to load (its last good
// version keeps running).
bool fbSim_ReloadAll(fbSim *sim);

// A scenario reload: everything fresh describes (world size, terrain, obstacles, goals, species,
// rules, hooks, metrics) replaces sim's, while sim's agents stay with their ids, positions,
// velocities, energy and fields. fresh is left to be freed.
void fbSim_Adopt(fbSim *sim, fbSim *fresh);

#endif
