// sim.h — a running scenario, as the rest of flockbox reaches it: through functions, never its members.
#ifndef FB_SIM_H
#define FB_SIM_H

#include "defs.h"
#include "orca.h"
#include "params.h"
#include "profile.h"

/*
 * fbSim is opaque here (flockbox.h declares it), like Box2D's world behind its id: the view, the
 * app, hooks, live changes, reload and telemetry read and change a running scenario only through
 * the functions below. Its members are in sim_internal.h, which only the sim's own sources
 * (sim.c, api.c) and white-box tests include. fbSim_New, fbSim_NewFromFile and fbSim_Delete
 * (flockbox.h) make and free one.
 */

// Wall-clock cost of the last step's phases, for the HUD (never used by the simulation itself).
typedef struct fbStepCost {
  double grid_ms, rules_ms, integrate_ms, bodies_ms, hooks_ms, total_ms;
} fbStepCost;

// ---- what it is and how it goes ----------------------------------------------------------------

// The world as the last step left it, to read: agents, species, terrain, obstacles, goals, paths.
// Agents move in storage at every step and grid update (ids stay); change it only through fbSim_*.
const fbWorld *fbSim_World(const fbSim *sim);

const char *fbSim_Path(const fbSim *sim);          // the scenario file ("" for a world built in C)
const char *fbSim_Name(const fbSim *sim);          // its display name
const char *fbSim_Description(const fbSim *sim);   // what it shows: its description, else its header comment
// The part of the world the scenario asks the window to show first (its `view`): the centre and
// the width in world units; false when it gives none (then the whole world).
bool fbSim_View(const fbSim *sim, double *x, double *y, double *width);
const char *fbSim_ReloadError(const fbSim *sim);   // why the last scenario save was refused ("" once one applies)
const fbRunOptions *fbSim_Options(const fbSim *sim);
int fbSim_Threads(const fbSim *sim);               // worker threads stepping it
uint64_t fbSim_Catches(const fbSim *sim);          // removals asked for by agents (predators) that took effect
const fbStepCost *fbSim_Cost(const fbSim *sim);    // the last step's phases, wall clock

// The scenario's metrics: how many, and the name of metric k (its CSV column).
int fbSim_MetricCount(const fbSim *sim);
const char *fbSim_MetricName(const fbSim *sim, int k);

// The list fbSim_Seen filled last, and whose it is (*id 0: nobody's yet).
const fbNeighbourList *fbSim_SeenList(const fbSim *sim, uint32_t *id);

// The grid and positions perception reads, for queries of who is near whom (fbPerception_Nearest,
// fbPerception_ForEach); call fbSim_UpdateGrid first if agents may have moved.
const fbPerceptionInput *fbSim_Perception(const fbSim *sim);

// The per-rule profile (profile.h): on clears the sums and starts adding to them, off stops.
void fbSim_Profile(fbSim *sim, bool on);
void fbSim_ResetProfile(fbSim *sim);
// Its table, most costly first, over *steps steps since it was started or reset; returns the rows.
int fbSim_ProfileTable(const fbSim *sim, fbProfileRow *rows, int max, long *steps);

// ---- what the window and hooks may change between steps ---------------------------------------

// The player's steering from the keys (held: the user is steering, a hook's fb.set_input waits).
void fbSim_SetPlayerInput(fbSim *sim, fbVec2 input, bool held);
// Moves goal g, or point `point` of path k (its spline is fitted again from the current time).
bool fbSim_MoveGoal(fbSim *sim, int g, fbVec2 to);
bool fbSim_MovePathPoint(fbSim *sim, int k, int point, fbVec2 to);
// Sets agent id's per-agent field `name` (declared by one of the world's rules) as if its rules had
// left it so: a test's preset memory. False if there is no such agent or field.
bool fbSim_SetAgentField(fbSim *sim, uint32_t id, const char *name, double value);
// Reverses the agents' storage order (the determinism check: results must not depend on it).
void fbSim_ReverseStorage(fbSim *sim);

// fbSim_Step (flockbox.h), one fixed step: its phases in order, with what each reads and writes,
// are in docs/architecture.md ("One step").

// Sorts the agents by grid cell for their current positions (a step does it first; telemetry and
// the viewer do it before asking where agents are) and sets up perception. Agents move in
// storage, never in what they compute: indices change, ids stay.
void fbSim_UpdateGrid(fbSim *sim);

// Whom agent i sees now, exactly as its perception would: into the list fbSim_SeenList reads
// (index, offset and distance of each), in perception's order; returns how many. Call fbSim_UpdateGrid first when
// agents may have moved since the last step or grid update.
int fbSim_Seen(fbSim *sim, int i);

// Records each rule's output for the agent with this id from the next step on (0: none).
void fbSim_Inspect(fbSim *sim, uint32_t id);

// While fn is set, the inspected agent's rules write a trace to fn, one line of text per call: each
// rule's lines as they ran with the locals they changed, what it returned, and how the combiner
// weighed it (rule_trace.h). The trace only reads: the run is the same with it. NULL stops it.
void fbSim_Trace(fbSim *sim, void (*fn)(const char *text, void *ud), void *ud);

// Agent id's ORCA problem in the last step, when it was the inspected agent (fbSim_Inspect) then:
// its half-planes (in velocity space: draw them round the agent), its preferred and its chosen
// velocity. NULL otherwise, or when its species does not run ORCA.
const fbOrcaPlan *fbSim_OrcaPlan(const fbSim *sim, uint32_t id);

// The output of rule k for the inspected agent in the last step; false if it did not run.
bool fbSim_InspectOutput(const fbSim *sim, int rule, fbVec2 *out);
// The rule tests' "steer allocates nothing": from the next step the inspected agent's rules run
// `calls` times more with the Lua collector stopped; fbSim_Allocated gives the bytes they took in
// the last step (-1: none measured).
void fbSim_MeasureAllocation(fbSim *sim, int calls);
double fbSim_Allocated(const fbSim *sim);

// Passes a key the viewer does not use to the scenario's on_key(name) hook (SDL key names, e.g. "A",
// "Left"). Returns false if the hook failed (message in fbSim_Error).
bool fbSim_Key(fbSim *sim, const char *name);

// Runs fn in the scenario's own Lua state, through its protected door (lua_host.h), between steps,
// as a hook call: the spawns and removals it queued are applied if it returned true, dropped
// otherwise. For the console (console.h); false with the message in err.
// (fn is an fbProtectedFn; spelled out so that sim.h needs no Lua header.)
struct lua_State;
bool fbSim_RunInScenario(fbSim *sim, const char *about, bool (*fn)(struct lua_State *L, void *ud, char *err, size_t errlen),
                         void *ud, char *err, size_t errlen);

// on: from the next step, the first rule that fails in a step leaves its frame (rule_frame.h:
// traceback, locals), for --break-on-error; fbSim_FailedFrame gives it after the step (NULL if no
// rule failed in the last step, or when off).
typedef struct fbRuleFrame fbRuleFrame;
void fbSim_CaptureFrames(fbSim *sim, bool on);
const fbRuleFrame *fbSim_FailedFrame(const fbSim *sim);

// fbSim_Hash (flockbox.h): FNV-1a over every agent's id, position and velocity.

// What the run has lost: how many rules were switched off and hooks or metrics failed (and were
// switched off under --keep-going), with the first of them described in what, e.g. "rule
// 'predator' of species 'predator' switched off at step 0 (and others)". 0: nothing lost.
int fbSim_Lost(const fbSim *sim, char *what, size_t len);

// The outcome a hook gave with fb.stop(label), and its time in seconds; NULL if none yet.
const char *fbSim_Outcome(const fbSim *sim, double *time);

// Evaluates the scenario's metrics into values[]; false (message in fbSim_Error) if one failed.
bool fbSim_Metrics(fbSim *sim, double *values);

// ---- the rules, as the panel, hooks and hot reload reach them ----------------------------------

const char *fbSim_RuleName(const fbSim *sim, int s, int k);
const char *fbSim_RuleModule(const fbSim *sim, int s, int k);
const char *fbSim_RuleError(const fbSim *sim, int s, int k);   // "" when it runs fine
// fbSim_FindRule, fbSim_SetWeight and fbSim_SetParam: flockbox.h.

// The file rule k of species s was loaded from ("" for a rule in C), and the steering library's.
const char *fbSim_RulePath(const fbSim *sim, int s, int k);
const char *fbSim_LibraryPath(const fbSim *sim);
// The folders rules are looked for in (the scenario's `behaviours`), count of them in *count.
const char (*fbSim_RuleFolders(const fbSim *sim, int *count))[512];
// The rule's description, which a save of its file loads it again from: a live change writes the
// new weight or parameter into it too, so the save keeps it.
fbRuleDef *fbSim_RuleDescription(fbSim *sim, int s, int k);

// Rebuilds species s from def, as the world builder would, keeping whom it sees and its rule
// slots; applies it only if every rule of the species accepts the result (false with the reason).
bool fbSim_SetSpecies(fbSim *sim, int s, const fbSpeciesDef *def, char *msg, size_t len);

// Species s as its description gave it (after --set and live changes): values as written, negative
// where a field is derived from others.
const fbSpeciesDef *fbSim_SpeciesDef(const fbSim *sim, int s);

// How many agents species s's description places by hand (agents = { ... }): a restart spawns them
// besides its `count` random ones.
int fbSim_PlacedAgents(const fbSim *sim, int s);

// Every parameter the rule's module declares, sorted by name.
const fbParamSpecs *fbSim_ParamSpecs(const fbSim *sim, int s, int k);
// A rule's parameter as its module declares it (default, range, description); NULL if none.
const fbParamSpec *fbSim_ParamSpec(const fbSim *sim, int s, int k, const char *name);
// The rule's numeric parameters, sorted by name; returns how many (at most max).
int fbSim_ListParams(const fbSim *sim, int s, int k, char names[][FB_NAME_LEN], double *values, int max);
// Every parameter of the rule (numbers, booleans, strings) with the value it runs with, sorted by
// name; returns how many (at most max).
int fbSim_ParamValues(const fbSim *sim, int s, int k, fbParamDef *values, int max);
// fbSim_SetParam for a parameter of any kind: a number, a boolean or a string, checked against
// the declared kind and range and the module's validate; false with the reason (naming the rule
// and parameter) and nothing changed if refused.
bool fbSim_SetParamValue(fbSim *sim, int s, int k, const fbParamDef *p, char *msg, size_t len);
// The rule's parameter table as Lua text.
void fbSim_WriteParams(const fbSim *sim, int s, int k, FILE *out);

// Loads rule k of species s again from its file (a save): the last good version stays until the
// new one has run a step cleanly. False with the message in fbSim_RuleError if it did not load.
bool fbSim_ReloadRule(fbSim *sim, int s, int k);

// Loads the steering library again, then every rule, each as if saved: after a save of the
// library or of a helper module rules require. False if anything failed to load (its last good
// version keeps running).
bool fbSim_ReloadAll(fbSim *sim);


// A save of the scenario file: runs it again and adopts what it describes (world size, terrain,
// obstacles, goals, species, rules, hooks, metrics) while the agents stay with their ids,
// positions, velocities, energy and fields. A rule file that does not load keeps its last good
// version. False, with the reason in fbSim_ReloadError and the old scenario still running, if the
// scenario itself does not load.
bool fbSim_ReloadScenario(fbSim *sim);

#endif
