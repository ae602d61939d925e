// sim_internal.h — the members of a running scenario: only the sim's own sources (sim.c, api.c) and white-box tests include it.
#ifndef FB_SIM_INTERNAL_H
#define FB_SIM_INTERNAL_H

#include "bodies.h"
#include "hooks.h"
#include "orca_stage.h"
#include "ruleset.h"
#include "sim.h"
#include "workers.h"

struct fbSim {
  fbWorld world;                   // what a step reads and writes: agents, species, terrain, obstacles
  fbGrid grid;
  fbSpeciesIndex members;          // each species' agents, when there is more than one species
  fbAggregates agg;
  fbPerceptionInput perception;
  fbVision vision[FB_MAX_SPECIES];
  int threads;
  fbWorkers workers;
  fbNeighbourList lists[FB_MAX_THREADS];
  fbCommandQueue queues[FB_MAX_THREADS];
  fbOrcaStage orca;                // this step's ORCA stage (orca_stage.h)
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
  int placed[FB_MAX_SPECIES];      // agents each species' description places by hand (agents = {...})
  uint32_t inspect_id;
  int inspect_index;               // its index this step (-1: none), once the agents are sorted
  fbOrcaPlan orca_plan;            // the inspected agent's ORCA half-planes and velocities this step
  bool orca_planned;               // orca_plan is this step's (the inspected agent runs ORCA)
  uint32_t orca_plan_id;           // whose plan orca_plan is (0: nobody's)
  uint64_t catches;                // removals asked for by agents (predators) that took effect
  fbStepCost cost;
  fbProfile profile;                 // the per-rule profile, when on (fbSim_Profile)
  bool capture_frames;             // fbSim_CaptureFrames: failing rules leave their frame
  fbNeighbourList seen;            // fbSim_Seen: whom one agent sees now (the viewer's neighbour lines)
  uint32_t seen_id;                // whose list `seen` is (0: nobody's)
  // Cold: where it came from and what went wrong, for messages and the HUD.
  char path[512];                  // the scenario file ("" for a world built in C)
  char name[128];                  // its display name
  char description[FB_DESCRIPTION_LEN];  // what it shows (fbSim_Description)
  double view[3];                  // x, y, width the window shows first (fbSim_View)
  char error[2048];                // the last scenario error (hooks, metrics)
  char reload_error[2048];         // why the last scenario save could not be applied ("" once one is)
};

// The storage-based forms behind fbSim_New, fbSim_NewFromFile and fbSim_Delete, for code that keeps
// a sim in its own memory (tests, the sim's own reload).

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

// A scenario reload: everything fresh describes (world size, terrain, obstacles, goals, species,
// rules, hooks, metrics) replaces sim's, while sim's agents stay with their ids, positions,
// velocities, energy and fields. fresh is left to be freed.
void fbSim_Adopt(fbSim *sim, fbSim *fresh);

#endif
