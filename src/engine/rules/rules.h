// rules.h — one Lua state with every species' rule modules: loading them, and running them over a range of agents.
#ifndef FB_RULES_H
#define FB_RULES_H

#include "agent_view.h"
#include "defs.h"
#include "lua_host.h"
#include "params.h"
#include "profile.h"
#include "rule_api.h"

typedef struct fbRuleFailure {
  int species, rule, agent;
  char message[1024];
} fbRuleFailure;

#define FB_MAX_FAILURES 8

// One version of a rule's module in a state: registry refs to its steer function, its params table
// and its validate function (nil if none), and where steer is defined, for messages.
typedef struct fbRuleVersion {
  int steer, params, validate;
  char where[160];
} fbRuleVersion;

// A rule's slot in one state: the version running; the one a reload replaced, kept until the new
// one has run cleanly (fbRules_Fallback, fbRules_Settle); the rule's own copy of its species table.
typedef struct fbRuleState {
  fbRuleVersion now, previous;
  int species;
} fbRuleState;

// One Lua state with every species' rules loaded, and the refs to call them without lookups.
typedef struct fbRuleRunner {
  fbLuaHost host;
  fbRuleContext ctx;
  fbAgentViews views;
  fbRuleState state[FB_MAX_SPECIES][FB_MAX_RULES];
  // Rules that failed in this runner during the current range; they are skipped for the rest of it.
  bool skip[FB_MAX_SPECIES][FB_MAX_RULES];
  fbRuleFailure failures[FB_MAX_FAILURES];
  int failure_count;
  // Per-rule outputs of one agent, for the inspector and the rule tests (inspect < 0: none).
  int inspect;
  fbVec2 inspect_out[FB_MAX_RULES];
  bool inspect_ran[FB_MAX_RULES];
  fbProfileCounters *profile;  // this thread's sums while the profile is on (profile.h), else NULL
  double clock_ns;             // the cost of a clock read, taken off each timing
  fbParamSpecs load_specs;     // a load's parameters when its caller keeps none (large: not on the stack)
} fbRuleRunner;

// The species table's fields (ended by a NULL name), and the math functions a rule state refuses
// (they would draw numbers that depend on thread timing; ended by NULL): for the editor's types
// and the lint's globals.
extern const fbApiField fbRules_SpeciesFields[];
extern const char *const fbRules_RefusedMath[];

// Opens the state: the sandbox, fb with the world's fields, math.random refused (its numbers would
// depend on which thread ran which agent: rules use a:random). require() searches `search`.
bool fbRules_Open(fbRuleRunner *r, size_t memory_limit, int timeout_ms, const fbWorld *w, const char *search);
void fbRules_Close(fbRuleRunner *r);

// Loads the steering library (the global `steering` every module gets a copy of) from `path`.
bool fbRules_LoadLibrary(fbRuleRunner *r, const char *path, char *err, size_t errlen);

// A rule module's text as read from its file once: every thread's state loads the same text,
// and messages name the file and line.
typedef struct fbRuleSource {
  const char *path;
  const char *text;
  size_t len;
} fbRuleSource;

// Loads the module src for rule `rule` of species `species`: its params are the module's
// defaults (declared with their ranges, params.h) overridden by def's parameters; unknown names,
// wrong types and values out of range are refused, then the module's validate() has its say.
// Declares the module's per-agent fields in the world. Writes the parameter declarations into
// specs (may be NULL). err gets one line naming `what` ("scripts/x.lua: species 'boid' rule
// 'cohesion'").
bool fbRules_Load(fbRuleRunner *r, fbWorld *w, int species, int rule, const fbRuleSource *src, const fbRuleDef *def,
                  const char *what, fbParamSpecs *specs, char *err, size_t errlen);

// As fbRules_Load, for a reload: the version it replaces is kept as the fallback.
bool fbRules_Reload(fbRuleRunner *r, fbWorld *w, int species, int rule, const fbRuleSource *src,
                    const fbRuleDef *def, const char *what, char *err, size_t errlen);

// Goes back to the version a reload replaced; false if there is none.
bool fbRules_Fallback(fbRuleRunner *r, int species, int rule);

// Forgets the replaced version: the reloaded one has proved itself.
void fbRules_Settle(fbRuleRunner *r, int species, int rule);

// (Re)builds the species table each rule of species s gets as its third argument (each its own).
bool fbRules_SetSpecies(fbRuleRunner *r, const fbWorld *w, int species, char *err, size_t errlen);

// Sets one parameter of a loaded rule to p (the caller has checked it against the declaration): a
// Lua integer for FB_VALUE_INTEGER, a float for FB_VALUE_NUMBER, a boolean or a string. False if
// the rule has no parameter of that name and type.
bool fbRules_SetParam(fbRuleRunner *r, int species, int rule, const fbParamDef *p);

// Asks the module's validate(params, species) whether the rule may run with parameter p->name set
// to p's value (p NULL: its parameters as they are) and with species sp (NULL: its species as it is),
// changing nothing. True if it has no validate or validate returns nil; else false with
// "name: message" in msg.
bool fbRules_Check(fbRuleRunner *r, const fbWorld *w, int species, int rule, const fbSpecies *sp, const fbParamDef *p,
                   char *msg, size_t len);

// Every parameter of a loaded rule that is a number, a boolean or a string (shorter than
// FB_PARAM_TEXT), sorted by name; returns how many (at most max).
int fbRules_ListValues(const fbRuleRunner *r, int species, int rule, fbParamDef *values, int max);

// The numeric parameters of a loaded rule, sorted by name; returns how many (at most max).
int fbRules_ListParams(const fbRuleRunner *r, int species, int rule, char names[][FB_NAME_LEN], double *values, int max);

// Writes a rule's parameter table as Lua text.
void fbRules_WriteParams(const fbRuleRunner *r, int species, int rule, FILE *out);

// Runs rules for agents [begin, end): writes ax, ay (the accumulator's result), fx, fy (forces) and
// step-t+1 fields. A rule that errors, or returns anything but two finite numbers, is recorded in
// r->failures and skipped for the rest of the range; the agent it failed on is run again without it.
void fbRules_Run(fbRuleRunner *r, int begin, int end);

// As fbRules_Run, with the rules marked in skip[species][rule] skipped from the start.
void fbRules_RunSkipping(fbRuleRunner *r, int begin, int end, const bool (*skip)[FB_MAX_RULES]);

#endif
