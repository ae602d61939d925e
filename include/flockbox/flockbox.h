// flockbox.h — the engine's public API: describe a world in C, load Lua steering rules, step it, read the agents.
#ifndef FLOCKBOX_H
#define FLOCKBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * In the manner of Box2D: a world is described by plain structs that start from their defaults
 * (fbDefaultSpeciesDef(), or fbScenarioDef_New, which fills them in), the program changes what it
 * needs and fbSim_New builds a running simulation from the description. The simulation itself is
 * an opaque fbSim, reached only through the functions below; its agents are read by copy, with
 * ids that stay while their storage order changes every step. These structs are the engine's own
 * (src/engine/scenario/defs.h includes this file): a Lua scenario file is read into exactly them.
 *
 * Values are in the units a scenario writes (degrees, degrees per second); a negative value marks
 * "derived from others" where the comments say so.
 */

// ---- limits and vectors -----------------------------------------------------------------------

#define FB_MAX_SPECIES 16
#define FB_MAX_RULES 24        // rules per species
#define FB_NAME_LEN 48
#define FB_MAX_PARAMS 16       // parameter overrides per rule
#define FB_PARAM_TEXT 64
#define FB_MAX_SETS 64

typedef struct fbVec2 {
  double x, y;
} fbVec2;

// ---- how a world behaves ----------------------------------------------------------------------

typedef enum fbBounds {
  FB_BOUNDS_WRAP,   // torus: leaving one edge enters the opposite one
  FB_BOUNDS_CLAMP,  // solid walls at the edges (soft bounds are a rule that keeps agents off them)
} fbBounds;

// How a step moves a body (Parker's and Gompert's updates differ in which velocity moves it).
typedef enum fbUpdate {
  FB_UPDATE_EULER,          // Gompert eq. 1-2: p += v dt (+ 1/2 a dt^2), then v += a dt
  FB_UPDATE_SEMI_IMPLICIT,  // Parker: v += a dt, limited, then p += v dt with the new velocity
} fbUpdate;

// How a species' linear drags (rules listed with drag = true) enter the step (src/engine/world/integrate.c).
typedef enum fbDragForm {
  FB_DRAG_EXACT,    // solved in closed form over the step: the same motion at any dt (the default)
  FB_DRAG_GOMPERT,  // his appendix's Boid::Update: explicit, v += (a + drag) dt, and with update_every > 1
                    // the drags of the steps since the last steering update add up (dt-dependent)
} fbDragForm;

// How a species with vision.sample = k draws its sample each step (src/engine/world/perception.c, top).
typedef enum fbSampling {
  FB_SAMPLING_EXACT,   // k of the flock-mates in view, a uniformly random k-subset (all of them when no
                       // more than k): every candidate is tested first, so it costs about what seeing all does
  FB_SAMPLING_GAMLEN,  // his Monte Carlo method (thesis 4.2): it looks at k flock-mates drawn at random
                       // among those within its radius along each axis and perceives the ones in view;
                       // k looks, whatever the density, so fewer than k are perceived
} fbSampling;

// The four ways a species combines its rules' steering into one acceleration.
typedef enum fbAccumKind {
  FB_ACCUM_WEIGHTED,     // sum of weight * output, truncated to max_accel (Parker; Bourg)
  FB_ACCUM_PRIORITISED,  // in priority order, fractions of max_accel added until a budget of 1 is spent (Reynolds 1987; Gompert)
  FB_ACCUM_EXCLUSIVE,    // the first non-zero output in priority order wins
  FB_ACCUM_STRICT,       // Gamlen 3.6: a pre-emptive rule that acts wins outright; else the rest add up
  FB_ACCUM_KINDS,        // how many (the table in src/engine/world/accumulate.c has an entry for each)
} fbAccumKind;

typedef enum fbValueKind { FB_VALUE_NUMBER, FB_VALUE_INTEGER, FB_VALUE_BOOL, FB_VALUE_STRING } fbValueKind;

// ---- the description of a world ---------------------------------------------------------------

// One rule parameter a scenario sets, overriding the module's default of the same name and type.
typedef struct fbParamDef {
  char name[FB_NAME_LEN];
  fbValueKind kind;
  double number;               // NUMBER, INTEGER (exact up to 2^53), BOOL (0 or 1)
  char text[FB_PARAM_TEXT];    // STRING
} fbParamDef;

// A rule written in C. Its context is the engine's internal one: the engine's own tests and its
// benchmark use it; a program embedding flockbox leaves it NULL and writes rules in Lua.
struct fbRuleContext;
typedef fbVec2 (*fbNativeRule)(const struct fbRuleContext *c, int agent);

typedef struct fbRuleDef {
  char module[FB_NAME_LEN];    // <rule folder>/<module>.lua ("" for a native rule)
  char name[FB_NAME_LEN];      // how the scenario, --set and hooks address it ("": the module's name)
  double weight;               // 1: multiplies the output (weighted) or scales it (prioritised, exclusive)
  bool force;                  // added after the accumulator as an external force (Gompert's terrain drag)
  bool preempt;                // accumulator "strict": when it acts it wins outright (Gamlen 3.6)
  bool drag;                   // a linear drag -k (v . n) n after the accumulator, integrated exactly
  fbNativeRule native;         // a rule written in C (tests, the benchmark's baseline): no Lua module
  fbParamDef params[FB_MAX_PARAMS];
  int param_count;
} fbRuleDef;

typedef struct fbSpawnDef {
  double area[4];              // x0, y0, x1, y1; NAN in area[0]: the whole world
  double around[3];            // x, y, r: a disc instead of the area when r >= 0 (default r = -1)
  double speed[2];             // min, max; max < 0: the species' cruising speed (default 0 .. that)
  double heading;              // degrees (0 = +x, 90 = +y, down the screen); NAN: random
} fbSpawnDef;

// What a species sees. Its fields' names, ranges and help: the vision block of species_fields in
// src/engine/scenario/schema.c; the running species holds it whole (fbSpecies.vision.def) beside
// the values perception derives from it in vision_of (src/engine/scenario/defs.c).
typedef struct fbVisionDef {
  double radius;               // 10
  double fov;                  // 270 degrees, the full angle of view
  double separation;           // comfort zone; -1: min(radius, 2 body lengths) (Gompert Table 1)
  char sees[FB_MAX_SPECIES][FB_NAME_LEN];  // species counted as flock-mates; none listed: its own
  int sees_count;
  int sample;                  // 0: every flock-mate in view; k > 0: a random k of them each step (Gamlen)
  fbSampling sampling;         // how the k are drawn: FB_SAMPLING_EXACT (the default) or Gamlen's looks
} fbVisionDef;

// ORCA (van den Berg et al. 2011) as a stage after the rules: the combined steering becomes a
// preferred velocity and the agent moves by the nearest velocity that collides with no neighbour
// within the time horizon (docs/steering-orca.md). A scenario writes `orca = true` or a table of these.
// Names, ranges and help: the ORCA block of species_fields (src/engine/scenario/schema.c); the running
// species holds it whole (fbSpecies.orca), read by src/engine/world/orca_stage.c.
typedef struct fbOrcaDef {
  bool on;                     // false: the rules alone steer
  double time_horizon;         // 10 s: how far ahead collisions with agents are avoided (tau)
  double obstacle_horizon;     // 10 s: likewise for obstacles (tau_o)
  int neighbours;              // 10: the nearest agents avoided
  double distance;             // 15 world units: agents farther than this are not avoided
  double keep_right;           // 0 degrees (the paper's): when it must give way, it aims this far right of its preferred velocity
  // Policy (docs/steering-orca.md, "Who avoids whom"): the defaults avoid every agent, half each.
  int layers;                  // 1: bit set of the layers it is on (Godot's avoidance_layers)
  int mask;                    // 1: it avoids an agent only if mask & that agent's layers != 0 (Godot's avoidance_mask)
  double priority;             // 0: against a lower priority it takes no share of the avoidance, the other all of it
  double standing_speed;       // 0 units/s (off): slower than this it stands, and every moving agent outranks it
  double patience;             // 0 s (off): blocked this long, it waits (preferred velocity 0), then tries again
} fbOrcaDef;

// A species, in option groups (spawn, the motion fields, vision, orca, ...). Each field's name as a
// scenario writes it, its range and help are a row of species_fields (src/engine/scenario/schema.c),
// in a block per group that names the function deriving what the step reads (fbSpeciesDef_Build's
// helpers in src/engine/scenario/defs.c); defaults: fbDefaultSpeciesDef. A new option goes into a
// group (docs/extending.md, "A species option").
typedef struct fbSpeciesDef {
  char name[FB_NAME_LEN];
  int count;                   // agents spawned at the start
  fbSpawnDef spawn;
  double body_length;          // 1 (Bourg's unit length; the body radius is half of it)
  double draw_size;            // 9: the smallest length the window draws an agent at, pixels
  double max_speed;            // 10
  double min_speed;            // 0
  double cruise_speed;         // -1: 0.7 max_speed (Gompert's appendix)
  double max_accel;            // -1: 2 max_speed (Gompert's appendix)
  double max_turn;             // degrees per second; -1: unlimited
  fbVisionDef vision;
  fbAccumKind accumulator;     // weighted
  int update_every;            // 1: steering recomputed every step (Gompert 8.2)
  fbDragForm drag;             // exact; gompert: his explicit, accumulating form (integrate.c)
  bool half_accel;             // add 1/2 a dt^2 to the position (Gompert eq. 1)
  bool slope_correction;       // true: move by v / sqrt(s_v^2 + 1) (Gompert eq. 10)
  bool player;                 // driven by the arrow keys or fb.set_input
  bool collide;                // true: a solid body, pushed apart from the other colliding ones (Gompert 8.1)
  fbOrcaDef orca;              // off
  double colour[3];            // 0..255
  fbRuleDef rules[FB_MAX_RULES];
  int rule_count;
} fbSpeciesDef;

typedef struct fbTerrainDef {
  char png[400];               // a greyscale PNG, as the scenario names it ("" for none)
  double height;               // 10: the height of white (or of the highest generated point)
  double generate;             // -1: none; else the seed of smooth random hills
  double feature;              // generated hills' size; 0: a quarter of the smaller world side
  int samples;                 // 256 generated samples per side
} fbTerrainDef;

typedef struct fbWorldDef {
  double width, height;        // 100 x 100
  double dt;                   // 0.05 s
  fbBounds bounds;             // wrap
  fbUpdate update;             // euler (Gompert eq. 1-2); semi_implicit moves by the new velocity (Parker)
  int collision_iterations;    // 1: passes per step pushing overlapping bodies apart
  fbTerrainDef terrain;        // flat when neither png nor generate is given
} fbWorldDef;

// A whole scenario: the world, its obstacles, goals and paths, the species with their rules. Opaque
// here (it also holds what a Lua scenario file brings: obstacles, paths, hooks' files).
typedef struct fbScenarioDef fbScenarioDef;

fbWorldDef fbDefaultWorldDef(void);
fbSpeciesDef fbDefaultSpeciesDef(void);
fbRuleDef fbDefaultRuleDef(void);

// A scenario def with the defaults above and no species, on the heap (it is large); free it with
// fbScenarioDef_Delete, which also frees obstacles the world has not taken.
fbScenarioDef *fbScenarioDef_New(void);
void fbScenarioDef_Delete(fbScenarioDef *d);

// The world part of the description (size, time step, bounds, terrain), to change in place.
fbWorldDef *fbScenarioDef_World(fbScenarioDef *d);

// A folder of the program's own rule modules, searched before the shipped ones (as a scenario's
// rule_dirs); false when the folders are full or the name too long.
bool fbScenarioDef_AddRuleFolder(fbScenarioDef *d, const char *folder);

// Appends a species with the defaults and this name; NULL when FB_MAX_SPECIES are there.
fbSpeciesDef *fbScenarioDef_AddSpecies(fbScenarioDef *d, const char *name);
fbSpeciesDef *fbScenarioDef_FindSpecies(fbScenarioDef *d, const char *name);

// Appends a rule with the defaults; module names a file <rule folder>/<module>.lua (NULL or "" for
// a native rule). The file is read when the sim is created.
fbRuleDef *fbSpeciesDef_AddRule(fbSpeciesDef *s, const char *module);

// The rule a scenario, --set or a hook means by `name`: its given name, else its module's.
fbRuleDef *fbSpeciesDef_FindRule(fbSpeciesDef *s, const char *name);
const char *fbRuleDef_Name(const fbRuleDef *r);

// Sets (or replaces) a parameter override; false when FB_MAX_PARAMS differ already, the name or
// text is too long, or the text holds a control character (text is one line: fbSim_New refuses a
// control character written into params[] directly, naming the parameter).
bool fbRuleDef_SetParam(fbRuleDef *r, const fbParamDef *p);
bool fbRuleDef_SetNumber(fbRuleDef *r, const char *name, double value);

// An agent placed by hand, spawned after its species' random ones; species is the index of one
// already added (0 for the first), else false and nothing placed. Its position and velocity are
// checked by fbSim_New, as the rest of the description is: finite, within -1e7 .. 1e7, else
// refused naming it as a scenario's agents list would ("species[1].agents[2]: position ...").
bool fbScenarioDef_PlaceAgent(fbScenarioDef *d, int species, fbVec2 p, fbVec2 v);

// ---- running it -------------------------------------------------------------------------------

typedef struct fbRunOptions {
  uint64_t seed;
  int threads;                     // worker threads (each with its own Lua state), 0: the machine's cores;
                                   // results do not depend on it
  const char *sets[FB_MAX_SETS];   // --set NAME=VALUE overrides, applied to the scenario's description
  int set_count;
  size_t lua_memory;               // bytes per Lua state
  int lua_timeout_ms;              // a rule or hook making no progress this long is stopped
  bool headless;
  bool keep_going;                 // a failed hook or metric is switched off and the run goes on (flagged)
  bool no_spawn;                   // build the world without agents (a scenario reload keeps the old ones)
} fbRunOptions;

// Seed 1, one thread per core, the default Lua memory and time limits.
void fbRunOptions_Default(fbRunOptions *o);

// A running simulation: the world, its rules in every thread's Lua state, the fixed step.
typedef struct fbSim fbSim;

// Builds the world d describes, loads its rules and spawns its agents; options NULL: the defaults.
// d's obstacles move into the world; d stays the caller's to delete. NULL on failure, with one
// message naming the field or the file ("(world built in C): species[1].vision.fov: must be
// between 0 and 360") in err.
fbSim *fbSim_New(fbScenarioDef *d, const fbRunOptions *options, char *err, size_t errlen);

// Runs a Lua scenario file (scripts/*.lua) and builds the sim it describes, hooks included.
fbSim *fbSim_NewFromFile(const char *path, const fbRunOptions *options, char *err, size_t errlen);

void fbSim_Delete(fbSim *sim);

// One fixed step. A rule that fails is switched off with a message and the step goes on; false
// only when the scenario's own hook failed (fbSim_Error says why).
bool fbSim_Step(fbSim *sim);

// The last scenario error ("" when none).
const char *fbSim_Error(const fbSim *sim);

// Simulated seconds since the start (steps times dt), and the world's width and height.
double fbSim_Time(const fbSim *sim);
fbVec2 fbSim_WorldSize(const fbSim *sim);

/*
 * Indices and errors. A species index s runs from 0 to fbSim_SpeciesCount - 1, a rule index k from
 * 0 to the species' rule count - 1 (fbSim_FindRule gives it); any other value is the program's to
 * get wrong, and every function here checks it before it reaches an array:
 *   - a function returning bool returns false and changes nothing: the reason goes into its msg
 *     buffer where it has one (fbSim_SetParam), else to the log function as an FB_LOG_ERROR
 *     (fbSim_SetWeight);
 *   - a function answering a question answers "none": fbSim_SpeciesName NULL, fbSim_FindRule -1
 *     (also for a name it does not know, or NULL), fbSim_GetAgents 0 (max <= 0 or out NULL).
 * Values are checked as a scenario file's are: a NaN or infinite weight or parameter is refused
 * like one beyond its range. The sim itself must be one fbSim_New made and fbSim_Delete has not
 * freed (fbSim_Delete(NULL) does nothing); it is not checked, as free() does not check its pointer.
 * The same holds for a description: fbSim_New refuses, with one message naming the field, a NaN
 * or infinity where a number is expected (NaN means "not given" only in spawn.area[0] and
 * spawn.heading, whose defaults it is), an enum value none of its names has (vision.sampling = 77),
 * a count beyond its array, and a rule module that is not a plain name ("../scripts/x").
 */

int fbSim_SpeciesCount(const fbSim *sim);
const char *fbSim_SpeciesName(const fbSim *sim, int s);

// One agent as it is after the last step. Ids stay for an agent's life and are never reused;
// the order agents come in changes from step to step (they are kept sorted by place).
typedef struct fbAgentState {
  uint32_t id;
  int species;                     // index, 0 .. fbSim_SpeciesCount - 1
  fbVec2 position, velocity;
} fbAgentState;

int fbSim_AgentCount(const fbSim *sim);

// Copies at most max agents into out; returns how many were copied.
int fbSim_GetAgents(const fbSim *sim, fbAgentState *out, int max);

// FNV-1a hash over every agent's id, position and velocity: equal hashes mean equal runs.
uint64_t fbSim_Hash(const fbSim *sim);

// Rule index of species s by the name the scenario gave it (or its module's), -1 if none.
int fbSim_FindRule(const fbSim *sim, int s, const char *name);

// A rule's weight, within -1e9 .. 1e9 as a scenario's; false, and nothing changed, otherwise.
bool fbSim_SetWeight(fbSim *sim, int s, int k, double weight);
// One numeric parameter in every thread's state; false with the reason in msg, and nothing changed,
// if the rule has no numeric parameter of that name, the value lies outside its declared range or
// the module's validate refuses it.
bool fbSim_SetParam(fbSim *sim, int s, int k, const char *name, double value, char *msg, size_t len);

// ---- threads ----------------------------------------------------------------------------------

/*
 * One thread at a time per sim: calls on one fbSim (fbSim_Step, the getters, the setters,
 * fbSim_Delete) must not overlap; a program that steps a sim on one thread and reads it on another
 * takes its own lock. fbSim_Step itself runs the sim's worker threads (fbRunOptions.threads, each
 * with its own Lua state) and returns when they have finished.
 *
 * Separate sims are independent: they may be created (fbSim_New, fbSim_NewFromFile), stepped and
 * deleted on different threads at once, each with its own Lua states, hooks and scratch, and each
 * runs bit for bit as it would alone. An fbScenarioDef belongs to one thread at a time, like a sim.
 *
 * Shared by the whole process: fbSetDataFolder, to be set before creating sims; the log function
 * (fbSetLogFunction), which the engine calls under one lock for all sims; and the one watchdog
 * thread that stops stuck scripts in every sim.
 */

// ---- where shipped files are found ------------------------------------------------------------

// The folder holding the shipped behaviours/ (rule modules and behaviours/lib/steering.lua),
// terrains/ and scripts/, looked in last: after the rule folders added to the def, the folder
// beside a scenario file and the working directory. NULL (the default): the source tree the library
// was built from, else <prefix>/share/flockbox for the prefix it was configured with
// (CMAKE_INSTALL_PREFIX; a static library cannot tell where it was copied to). A folder set here
// replaces both: pass pkg-config --variable=datadir flockbox, or flockbox_DATA_DIR from CMake, to be
// sure of the installed files. Set it before creating a sim.
void fbSetDataFolder(const char *folder);

// ---- messages ---------------------------------------------------------------------------------

typedef enum fbLogLevel {
  FB_LOG_INFO,     // something happened as asked (a file reloaded)
  FB_LOG_WARNING,  // something failed and the engine carries on without it (a rule switched off)
  FB_LOG_ERROR,    // a failure the program also hears of through a false return
} fbLogLevel;

// Receives every message of the engine: one line or a few, with no program name and no final
// newline. Called on the thread that steps the sim, except a rule's print(...), which arrives from
// the worker thread running the rule; never by two threads at a time, even with several sims
// running on several threads (the engine holds one lock around each call).
typedef void fbLogFcn(fbLogLevel level, const char *message, void *context);

// Sets where the engine's messages go; NULL: back to the default, stderr as "flockbox: <message>".
// Set it before creating a sim (it is taken under the same lock, so a later change is safe, but the
// messages before it went to the old function). Otherwise the engine writes only to files it is asked to write and
// never ends the process; the one exception is an assertion (a bug in flockbox), which aborts.
void fbSetLogFunction(fbLogFcn *fcn, void *context);

#ifdef __cplusplus
}
#endif

#endif
