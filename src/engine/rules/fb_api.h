// fb_api.h — the one table of the global fb's functions, in rules and in scenarios: name, where each is offered, implementation, types, help.
#ifndef FB_FB_API_H
#define FB_FB_API_H

#include <lauxlib.h>
#include <lua.h>
#include <stdbool.h>
#include <stddef.h>

#include "world.h"

/*
 * Every function of the global `fb` a script sees, in a rule and in a scenario's functions, is one
 * entry of fbFbApi_Functions: its name, the states that offer it, its implementation, and what an
 * editor is told about it (params and returns as LuaLS lists, "name type, name? type", ? =
 * optional, a returned type ending in ? may be nil; help is one line). The rule states' opener
 * (fbFbApi_OpenRules), the scenario state's (scenario_api.c) and the types generator (lua_types.c) all
 * walk this table, and test_rule_api checks each state's fb against it: what a script gets and
 * what its editor shows cannot drift apart.
 *
 * Implementations. A function rules are offered reads only the world, and is written once, in
 * fb_api.c, for every state that offers it: it finds the world through the state's context (see
 * fbFbApi_Set). A function only scenarios are offered may need the scenario's own state (its queue
 * of spawns, its walks, the rules it reweights), which lives in sim/, a layer above this table: its
 * entry has no implementation (func NULL), and the scenario's opener hands it in by name, each one
 * checked against the table when the state opens.
 *
 * One name, two entries: `goal`. In a rule it reads a goal; in a scenario it also moves one (the
 * older spelling of fb.set_goal), which rules, running on several threads inside a step, must never
 * do. The two take different arguments, so the editor is told two different things: two entries.
 */
typedef enum fbFbStates {
  FB_IN_RULES = 1,
  FB_IN_SCENARIOS = 2,
  FB_IN_BOTH = FB_IN_RULES | FB_IN_SCENARIOS,
} fbFbStates;

typedef struct fbFbFunction {
  const char *name;
  fbFbStates offered;
  lua_CFunction func;  // NULL: the scenario state's own, handed to fbFbApi_Set by name
  const char *params, *returns, *help;
} fbFbFunction;

// The table, ended by a NULL name.
extern const fbFbFunction fbFbApi_Functions[];

// True if some entry offers `name` in `state` (a name may have two entries: goal).
bool fbFbApi_Offers(fbFbStates state, const char *name);

/*
 * Sets into the table on top of the stack every function the table offers in `state`: its own
 * implementation, or the one of the same name in `own` (a list ended by a NULL name; NULL for
 * none). The state's context (fbLuaHost_Context) must hold the world's pointer world_at bytes in:
 * offsetof(fbRuleContext, world) in rules, offsetof(fbHooks, on.world) in scenarios. An entry
 * without an implementation, or an own function the table does not offer there without one, is a
 * programmer's mistake: FB_ASSERT.
 */
void fbFbApi_Set(lua_State *L, fbFbStates state, size_t world_at, const luaL_Reg *own);

// Makes the global fb of a rule state: the functions the table offers rules, and the world table
// (width, height, wraps, dt; also callable as fb.world() for width, height, wraps).
void fbFbApi_OpenRules(lua_State *L, const fbWorld *w);

#endif
