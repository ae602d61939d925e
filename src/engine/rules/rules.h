// rules.h — one Lua state with every species' rules, and running them over a range of agents (loading: rule_module.h).
#ifndef FB_RULES_H
#define FB_RULES_H

#include <lauxlib.h>

#include "agent_view.h"
#include "defs.h"
#include "lua_host.h"
#include "params.h"
#include "profile.h"
#include "rule_api.h"
#include "rule_frame.h"
#include "rule_trace.h"

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

// A slot with no version loaded: every ref LUA_NOREF, which luaL_unref ignores.
#define FB_NO_RULE_VERSION ((fbRuleVersion){LUA_NOREF, LUA_NOREF, LUA_NOREF, ""})

// A rule's slot in one state: the version running; the one a reload replaced, kept until the new
// one has run cleanly (rule_module.h: fbRuleModule_Fallback, fbRuleModule_Settle); the rule's own
// copy of its species table.
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
  fbRuleTrace trace;  // --trace: the inspected agent's rules line by line (trace.out NULL: none)
  // The rule tests' allocation check: the inspected agent's rules run this many times more, with
  // the collector stopped, and the bytes they allocated (0 calls: off).
  int alloc_calls;
  double alloc_bytes;
  fbProfileCounters *profile;  // this thread's sums while the profile is on (profile.h), else NULL
  double clock_ns;             // the cost of a clock read, taken off each timing
  fbParamSpecs load_specs;     // a load's parameters when its caller keeps none (large: not on the stack)
  fbRuleFrame *frame;          // --break-on-error: the first failing frame of a range is taken here (else NULL)
} fbRuleRunner;

// The math functions a rule state refuses (they would draw numbers that depend on thread timing;
// ended by NULL): for the editor's types and the lint's globals.
extern const char *const fbRules_RefusedMath[];

// Opens the state: the sandbox, fb with the world's fields, math.random refused (its numbers would
// depend on which thread ran which agent: rules use a:random). require() searches `search`.
bool fbRules_Open(fbRuleRunner *r, size_t memory_limit, int timeout_ms, const fbWorld *w, const char *search);
void fbRules_Close(fbRuleRunner *r);

// Runs rules for agents [begin, end): writes ax, ay (the accumulator's result), fx, fy (forces) and
// step-t+1 fields. A rule that errors, or returns anything but two finite numbers, is recorded in
// r->failures and skipped for the rest of the range; the agent it failed on is run again without it.
void fbRules_Run(fbRuleRunner *r, int begin, int end);

// As fbRules_Run, with the rules marked in skip[species][rule] skipped from the start.
void fbRules_RunSkipping(fbRuleRunner *r, int begin, int end, const bool (*skip)[FB_MAX_RULES]);

// on: from the next range, the first rule that fails in a range leaves its frame in r->frame
// (rule_frame.h); off frees it. Off by default: taking a frame costs only when a rule fails.
void fbRules_CaptureFrames(fbRuleRunner *r, bool on);

#endif
