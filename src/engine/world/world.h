// world.h — everything a step reads and writes: agents as arrays per field, species, terrain, obstacles.
#ifndef FB_WORLD_H
#define FB_WORLD_H

#include "accumulate.h"
#include "fb.h"
#include "flow_field.h"
#include "integrate.h"
#include "perception.h"
#include "obstacles.h"
#include "region.h"
#include "spline_path.h"
#include "terrain.h"

// One rule of a species as the step uses it. Its Lua function and parameters live in each Lua
// state, its names, file and last error in the rule set (ruleset.h): only what every agent's step
// reads sits here.
typedef struct fbRuleSlot {
  double weight;             // multiplies the output (weighted) or scales it (prioritised, exclusive)
  fbNativeRule native;       // when set, called instead of the Lua module
  bool force;                // added after the accumulator as an external force (Gompert's terrain drag)
  bool preempt;              // accumulator "strict": when it acts it wins outright (Gamlen 3.6)
  bool drag;                 // a linear drag, integrated exactly with the step (Gompert's terrain drag)
  bool disabled;             // switched off after an error until the file changes
  bool on_trial;             // reloaded and not yet run cleanly: a failure goes back to the last good version
} fbRuleSlot;

// The slot a rule's description gives (weight, native function, force, pre-emption, drag), fresh:
// neither disabled nor on trial. The one place a def becomes a slot (building a world, loading a rule).
static inline fbRuleSlot fbRuleSlot_FromDef(const fbRuleDef *def)
{
  return (fbRuleSlot){.weight = def->weight, .native = def->native, .force = def->force, .preempt = def->preempt,
                      .drag = def->drag};
}

// A species as a step uses it, built from its description by fbSpeciesDef_Build (defs.c). The
// description's option groups are embedded whole (vision.def, orca), never copied field by field:
// a new option in a group reaches its consumer here with no line in this file (docs/extending.md).
typedef struct fbSpecies {
  char name[FB_NAME_LEN];
  fbVision vision;           // derived values and the description's vision group whole (vision.def)
  fbMotionLimits limits;
  double cruise_speed;       // Gompert v_c, 0..max_speed
  double body_length;        // Bourg's unit length; the body radius is half of it
  double draw_size;          // the smallest length the window draws one at, pixels (a predator drawn large)
  fbAccumKind accumulator;
  fbRuleSlot rules[FB_MAX_RULES];
  int rule_count;
  uint8_t colour[3];
  bool player;               // driven by the arrow keys (or the scenario's course when headless)
  bool collide;              // a solid body: pushed apart from other colliding bodies after each step
  fbOrcaDef orca;            // on: ORCA turns the rules' steering into a collision-free velocity (orca_stage.h)
  bool all_native;           // every rule is native C: the Lua view need not be filled
  uint32_t field_mask;       // bit f: one of its rules declared per-agent field f
  int update_every;          // Gompert 8.2: steering recomputed every i-th step for a staggered 1/i of
                             // the agents (forces still every step); 1 = every step
} fbSpecies;

// Agents, one array per field. Rules read fields at step t from field[] and write step t+1 into
// field_next[]; positions and velocities change only in the integrate phase, after every rule ran.
// Agents are stored in spatial order: each step starts by sorting them by grid cell, and by id
// inside a cell (grid.h), so what a step computes never depends on the order they were in.
// Ids are what stays: fbWorld_FindAgent maps an id to the agent's index now.
typedef struct fbAgents {
  int count, capacity;
  double *px, *py, *vx, *vy;
  double *hx, *hy;           // unit heading, kept when an agent stops
  double *ax, *ay;           // the accumulator's result this step (kept for drawing and telemetry)
  double *fx, *fy;           // forces this step
  double *dx, *dy;           // linear drag this step (rules listed with drag = true); in Gompert's form
                             // (species drag = "gompert") summed since the last steering update
  double *carried_dx, *carried_dy;  // that sum as the last step ended: set by the integrate phase only,
                                    // so that rules run again after a failure add this step's drag once
  double *energy;
  double *orca_blocked;      // seconds the ORCA stage has found it blocked in a row (orca.patience): written by
                             // that stage for its own agent only; not in a saved state (a loaded one starts at 0)
  uint32_t *id;
  uint8_t *species;
  uint8_t *active;           // 0 while being removed
  uint8_t *held;             // 1: a rule held it still this step (a:hold(), Parker's perching): no
                             // other rule ran, and it neither moves nor keeps its speed
  double *field[FB_MAX_FIELDS];
  double *field_next[FB_MAX_FIELDS];
  // Spare arrays of the same capacity: a reorder gathers into one and swaps it with the array.
  double *spare;
  uint32_t *spare_id;
  uint8_t *spare_byte;
  // id -> index, open addressing (id 0 marks an empty slot), rebuilt when first needed after the
  // agents moved in storage.
  uint32_t *map_id;
  int *map_index;
  int map_capacity;
  bool map_valid;
} fbAgents;

typedef struct fbGoal {
  char name[FB_NAME_LEN];
  fbVec2 p;
} fbGoal;

typedef enum fbCommandKind { FB_CMD_SPAWN, FB_CMD_REMOVE } fbCommandKind;

// Requested during a step, applied after it (never in the middle of one).
typedef struct fbCommand {
  fbCommandKind kind;
  uint32_t target;           // remove: the agent id
  uint32_t by;               // the agent that asked (UINT32_MAX for the scenario)
  int species;               // spawn
  fbVec2 p, v;               // spawn
} fbCommand;

typedef struct fbCommandQueue {
  fbCommand *items;
  int count, capacity;
} fbCommandQueue;

#define FB_MAX_GOALS 32
#define FB_MAX_RULE_DIRS 8

typedef struct fbWorld {
  double width, height;
  double dt;
  fbBounds bounds;
  fbUpdate update;           // which velocity moves a body: the old (Gompert) or the new (Parker)
  int collision_iterations;  // Jacobi passes per step that push overlapping bodies apart (bodies.h)
  uint64_t seed;
  uint64_t step;
  fbTerrain terrain;
  fbObstacles obstacles;
  fbSpecies species[FB_MAX_SPECIES];
  int species_count;
  char field_names[FB_MAX_FIELDS][FB_NAME_LEN];
  double field_defaults[FB_MAX_FIELDS];
  int field_count;
  fbGoal goals[FB_MAX_GOALS];
  int goal_count;
  fbPaths paths;             // splines with their path objects, moved once per step (spline_path.h)
  fbFlowFields flows;        // named fields of desired velocities (flow_field.h), read-only while running
  fbRegions regions;         // named polygons for containment (region.h), read-only while running
  fbAgents agents;
  fbVec2 input;              // the player's steering input: arrow keys in the window, fb.set_input() headless
  bool input_held;           // the window's user is steering: fb.set_input is ignored until they let go a while
  uint32_t next_id;
  uint64_t removed_total;    // agents removed by commands since the start
} fbWorld;

void fbWorld_Init(fbWorld *w);
void fbWorld_Free(fbWorld *w);

// Returns the field's index, declaring it with `initial` for every agent if new; -1 when full.
int fbWorld_DeclareField(fbWorld *w, const char *name, double initial);
int fbWorld_FindField(const fbWorld *w, const char *name);
int fbWorld_FindSpecies(const fbWorld *w, const char *name);
int fbWorld_FindGoal(const fbWorld *w, const char *name);

// Appends an agent with the next id; returns its index.
int fbWorld_AddAgent(fbWorld *w, int species, fbVec2 p, fbVec2 v);

// Makes room for count agents and sets the count, leaving the values of the new ones to the caller
// (a saved state being read back, state.h): every per-agent array, fields included, holds count.
void fbWorld_SetCount(fbWorld *w, int count);

// Index of the agent with this id, or -1. The first call after agents moved in storage rebuilds
// the map in O(agents); not to be called from several threads at once.
int fbWorld_FindAgent(const fbWorld *w, uint32_t id);

// Stores the agents in a new order: the k-th agent becomes the one that was at order[k]
// (a permutation of 0 .. count - 1), every per-agent array alike.
void fbWorld_Reorder(fbWorld *w, const int *order);

// Stores the agents in reverse order (ids kept): what a step computes must not depend on it, and
// tests and the determinism check use it to show so.
void fbWorld_ReverseStorage(fbWorld *w);

// Removes every agent with active == 0, keeping the order of the rest.
void fbWorld_Compact(fbWorld *w);

// step t+1 fields become current; the next step starts from a copy of them.
void fbWorld_SwapFields(fbWorld *w);

// A scenario reload: everything fresh describes (size, dt, bounds, terrain, obstacles, goals, paths,
// species, fields) moves into old, whose agents stay. Agents follow their species by name (those of
// a species that is gone are removed); fields carry over by name, new ones start at their defaults.
// A path object whose path keeps its name keeps its progress, as a fraction of the path's length
// (an edited path keeps it at about the same place); its speed is the new table's again.
void fbWorld_Adopt(fbWorld *old, fbWorld *fresh);

// Queues c; false when the queue already holds FB_MAX_COMMANDS (the caller says so to the script).
bool fbCommands_Push(fbCommandQueue *q, fbCommand c);
void fbCommands_Free(fbCommandQueue *q);

#endif
