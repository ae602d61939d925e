// ruleset.h — a simulation's rules across its per-thread Lua states, and the only owner of those states.
#ifndef FB_RULESET_H
#define FB_RULESET_H

#include "rules.h"

/*
 * Every worker thread runs rules in a Lua state of its own, so each rule exists once per state.
 * The rule set keeps them in step: it loads a rule into every state or into none, reloads with a
 * fallback to the last good version, sets a parameter everywhere, lists parameters, and switches
 * a failing rule off with one message. The panel, scenario hooks and hot reload go through the
 * simulation's functions (sim.h), which come here; nothing else touches a worker's lua_State.
 *
 * What a rule is in the world (weight, force, disabled) is hot and lives in the species' slots;
 * what it is called, where its file is and its last error are cold and live here.
 */

// A file's text on the heap (NULL when there is none).
typedef struct fbText {
  char *text;
  size_t len;
} fbText;

typedef struct fbRuleInfo {
  fbRuleDef def;             // as the scenario gave it: a reload starts again from its parameters
  char path[512];            // the module's file ("" for a native rule)
  fbParamSpecs specs;        // its parameters as the module declares them
  char names[1024];          // every .name the module's source mentions, ';'-separated: what its view
                             // is primed with, so that it is never rebuilt mid-run
  char error[2048];          // the last error, file:line and traceback, for the HUD ("" if none)
  // The module's texts, so that a scenario reload keeps what hot reload promises (the last good
  // version runs until a good one is saved) although it reads every file again:
  fbText source;             // the version loaded now (after a save, on trial until it runs a step)
  fbText good;               // the version it falls back to: the one a save replaced, or the first
  fbText rejected;           // the file's text that failed and was given up ({0} if none)
  // What the log has yet to say, once per file however many species use it: a reload is told once
  // it ran a step cleanly ("reloaded ... at step N"), so a version that fails at once is told as
  // failed only; a failure is told once per step.
  bool reload_untold;
  uint64_t reload_step;      // the step the reload took effect before
  uint64_t failure_told;     // 1 + the step whose failure of this file was told (0: none)
} fbRuleInfo;

typedef struct fbRuleSet {
  int threads;
  fbRuleRunner *runners;                 // one per thread, each with its own Lua state
  fbRuleInfo (*info)[FB_MAX_RULES];      // [species][rule], on the heap
  // How the run was made: rules switched off after an error since the start (a run that lost a
  // rule must not pass for success), and the first of them, "rule 'r' of species 's' at step n".
  int switched_off;
  char first_off[256];
  char scenario[512];                    // the scenario file: module paths start beside it
  char dirs[FB_MAX_RULE_DIRS][512];      // its own rule folders, searched before behaviours/
  int dir_count;
  char search[2048];                     // folders searched for modules and helpers, ';'-separated
  char library[512];                     // the steering library's file
  const struct fbRuleSet *previous;      // while a scenario reload loads: the running rules, whose last
                                         // good versions stand in for files that do not load
} fbRuleSet;

/*
 * Opens one sandboxed state per thread for the world w and the scenario at `scenario` with its
 * own rule folders, and loads the steering library into each. Modules are looked for in the
 * scenario's rule folders, then behaviours/ beside the scenario, then in the source tree;
 * require() also looks in behaviours/lib.
 */
bool fbRuleSet_Open(fbRuleSet *rs, int threads, size_t memory_limit, int timeout_ms, const fbWorld *w,
                    const char *scenario, const char (*dirs)[512], int dir_count, char *err, size_t errlen);
void fbRuleSet_Close(fbRuleSet *rs);

// Loads the steering library again, then every rule (it is part of each): a save of the library
// or of a helper module takes effect like a save of a rule. False if it did not load.
bool fbRuleSet_ReloadAll(fbRuleSet *rs, fbWorld *w);

// Points every state at what rules read and write: thread t gets lists[t] and queues[t].
// Points each thread's runner at its sums in p (NULL: profiling off).
void fbRuleSet_Profile(fbRuleSet *rs, fbProfile *p);

// on: each state takes the frame of the first rule that fails in its range (rule_frame.h); off
// frees them. The frame of the first failure in agent order of the last step, or NULL if no rule
// failed in it (the earliest range's: a range run again after a failure elsewhere takes anew).
void fbRuleSet_CaptureFrames(fbRuleSet *rs, bool on);
const fbRuleFrame *fbRuleSet_FailedFrame(const fbRuleSet *rs);

void fbRuleSet_Bind(fbRuleSet *rs, fbWorld *w, const fbPerceptionInput *in, const fbAggregates *agg,
                    fbNeighbourList *lists, fbCommandQueue *queues);

// (Re)builds species s's table (max_speed, dt, ...) that its rules get as their third argument.
bool fbRuleSet_SetSpecies(fbRuleSet *rs, const fbWorld *w, int s, char *err, size_t errlen);

// Rule k of species s from its def: finds the module, loads it into every state with the def's
// parameters, declares its fields, and fills the species' slot (weight, force, native). A native
// rule loads nothing. `where` names it in messages ("scripts/x.lua: species[1].rules[2]").
bool fbRuleSet_Load(fbRuleSet *rs, fbWorld *w, int s, int k, const fbRuleDef *def, const char *where, char *err,
                    size_t errlen);

// Primes every rule's view with the fields its source names (fbAgentViews_Prime); called once all
// rules are loaded, since a rule may read fields another one declares.
void fbRuleSet_PrimeViews(fbRuleSet *rs, const fbWorld *w);

// Loads rule k of species s again from its file into every state, keeping the current version as
// the fallback until the new one has run a step cleanly. On failure nothing changes, and the
// message is in info[s][k].error and goes to the log function (log.h).
bool fbRuleSet_Reload(fbRuleSet *rs, fbWorld *w, int s, int k);

/*
 * After a scenario reload has built fresh rule sets from the files, keeps for each rule that the
 * running set `old` also has (same species, same rule name, same file) what hot reload promised:
 *   - the file still holds a version that failed: fresh runs old's last good version instead,
 *     with old's message;
 *   - the file holds another version than old's last good one (saved with the scenario, or on
 *     trial): fresh runs it on trial, with old's last good version to fall back to if it fails.
 */
void fbRuleSet_KeepLastGood(fbRuleSet *fresh, fbWorld *fresh_world, const fbRuleSet *old, const fbWorld *old_world);

// Rule index of species s by the name the scenario gave it (or its module's), -1 if none.
int fbRuleSet_Find(const fbRuleSet *rs, const fbWorld *w, int s, const char *name);

// One parameter (a number, boolean or string) in every state, checked against its declared kind
// and range and the module's validate; false with the reason in msg, naming the rule and the
// parameter ("probe.target: no species 'x'"), and nothing changed, if the rule has no parameter of
// that name or the value is refused.
bool fbRuleSet_SetValue(fbRuleSet *rs, const fbWorld *w, int s, int k, const fbParamDef *p, char *msg, size_t len);

// fbRuleSet_SetValue for a number; refused if the parameter is not a number.
bool fbRuleSet_SetParam(fbRuleSet *rs, const fbWorld *w, int s, int k, const char *name, double value, char *msg,
                        size_t len);

// Whether every rule of species s would accept the species table of sp (its validate), changing
// nothing; false with the first refusal in msg.
bool fbRuleSet_CheckSpecies(fbRuleSet *rs, const fbWorld *w, int s, const fbSpecies *sp, char *msg, size_t len);

// Every parameter of a rule (numbers, booleans, strings) as the first state holds them, sorted by
// name; returns how many (at most max).
int fbRuleSet_ListValues(const fbRuleSet *rs, int s, int k, fbParamDef *values, int max);

// The numeric parameters of a rule as state `thread` holds them, sorted by name; returns how many.
int fbRuleSet_ListParams(const fbRuleSet *rs, int thread, int s, int k, char names[][FB_NAME_LEN], double *values,
                         int max);

// A rule's parameter table as Lua text ("{ divisor = 100 }"), from the first state.
void fbRuleSet_WriteParams(const fbRuleSet *rs, int s, int k, FILE *out);

// Runs the rules of agents [begin, end) in state `thread` (see fbRules_Run).
void fbRuleSet_Run(fbRuleSet *rs, int thread, int begin, int end);

// After every state ran its range: a failure makes later ranges run again without the failed rule
// (so a step ends as on one thread), then the rule is switched off with one message, or goes back
// to its last good version if it was just reloaded; reloads that ran cleanly settle. begin and end
// give each thread's range. Returns true if a rule was switched off.
bool fbRuleSet_Finish(fbRuleSet *rs, fbWorld *w, const int *begin, const int *end);

// Adds to the masks the species whose rules asked for flock-mate lists or nearest distances that
// perception did not keep for them this step, and forgets the asking.
void fbRuleSet_TakeWants(fbRuleSet *rs, uint32_t *list, uint32_t *nearest);

// Records each rule's output for the agent at this index in the coming step (-1: none); set
// before every step, since agents move in storage, and forgetting the last step's outputs.
void fbRuleSet_Inspect(fbRuleSet *rs, int index);
// Another agent is inspected: forget the outputs recorded so far.
void fbRuleSet_ForgetInspect(fbRuleSet *rs);
// --trace: the inspected agent's rules write their trace to fn (rule_trace.h); NULL: none.
void fbRuleSet_Trace(fbRuleSet *rs, void (*fn)(const char *text, void *ud), void *ud);
bool fbRuleSet_InspectOutput(const fbRuleSet *rs, int k, fbVec2 *out);

// From the next step, the inspected agent's rules run `calls` times more with the collector
// stopped (0: off); the bytes they allocated in the last step it ran, or -1 if none measured.
void fbRuleSet_MeasureAllocation(fbRuleSet *rs, int calls);
double fbRuleSet_Allocated(const fbRuleSet *rs);

// Exchanges the states and rule information of two sets (a scenario reload adopts fresh ones).
void fbRuleSet_Swap(fbRuleSet *a, fbRuleSet *b);

// Allocations and reallocations made by the rule states since they were opened.
uint64_t fbRuleSet_Allocations(const fbRuleSet *rs);

#endif
