// rule_api.h — what a rule may call: the agent view's methods, and what fb's functions share with them (fb_api.h).
#ifndef FB_RULE_API_H
#define FB_RULE_API_H

#include <lua.h>

#include "world.h"

// What the C functions that rules call (a:neighbour, a:set, fb.terrain, ...) work on.
// An agent's rules may remove this many agents in one step (a catch is one): a rule that loops on
// a:remove is stopped at once, before its removals crowd out other species' in the thread's queue.
#define FB_MAX_REMOVALS_PER_AGENT 16

typedef struct fbRuleContext {
  fbWorld *world;
  const fbPerceptionInput *perception;
  const fbAggregates *agg;
  const fbNeighbourList *list;
  fbCommandQueue *commands;
  int agent;                 // index of the agent whose rules are running
  bool held;                 // a rule called a:hold() for it this step: its other rules are skipped
  int removals;              // a:remove calls for it this step (at most FB_MAX_REMOVALS_PER_AGENT)
  int species, rule;         // the rule running now, for messages
  // A species whose rules start walking flock-mates or reading the nearest distance gets them from
  // perception from the next step on (the bits below, merged by the simulation after the step);
  // until then the agent's own view is perceived again on demand into `seen`, identically.
  uint32_t wants_list, wants_nearest;
  fbNeighbourList seen;
  int seen_agent;            // the agent `seen` holds, -1 if none
  double seen_nearest;
  // While a bad result is looked into (rules.c): the steer function, and the line it returned from.
  int return_defined, return_line;
  char return_source[256];
} fbRuleContext;

/*
 * One method of the agent view, with what an editor is told about it: the one table both the
 * engine (which sets the methods) and lua_types.c (which writes types/flockbox.lua for
 * lua-language-server) read, so the types cannot drift from what a script really gets. params and
 * returns are LuaLS lists, "name type, name? type" (? = optional; a returned type ending in ? may
 * be nil); help is one line. The fb functions have a table of their own, with where each is
 * offered: fb_api.h.
 */
typedef struct fbApiFunction {
  const char *name;
  lua_CFunction func;
  const char *params, *returns, *help;
} fbApiFunction;

// Sets every function of the list (ended by a NULL name) into the table on top of the stack.
void fbApi_SetFunctions(lua_State *L, const fbApiFunction *list);

// The agent view's methods (ended by a NULL name).
extern const fbApiFunction fbRuleApi_ViewMethods[];

// A field of a table the engine hands a script (fb.world, the species table, a hook's agent
// record): its name, LuaLS type and one line of help for the editor's types, and where the engine
// takes a number from (the offset of a double in the struct the table is made from, or of a
// double array; FB_COMPUTED when the code that pushes the table works it out).
typedef struct fbApiField {
  const char *name, *type, *help;
  size_t offset;
} fbApiField;
#define FB_COMPUTED ((size_t)-1)

// The fields of fb.world (ended by a NULL name).
extern const fbApiField fbRuleApi_WorldFields[];

// The context of the rule state L.
fbRuleContext *fbRuleApi_Context(lua_State *L);

// Argument arg as an agent id: a whole number from 1 to 2^32 - 1, else a Lua error naming the
// call. An id is never wrapped into range: fb.remove(2^32 + 1) must not remove agent 1.
uint32_t fbRuleApi_CheckId(lua_State *L, int arg);

// Argument arg as a finite number within +-FB_MAX_MAGNITUDE, else a Lua error naming the call;
// the Opt form gives `def` when the argument is absent or nil.
double fbRuleApi_CheckNumber(lua_State *L, int arg);
double fbRuleApi_OptNumber(lua_State *L, int arg, double def);

// Argument arg as a distance or a range a query reaches: any number but NaN (math.huge: no limit).
double fbRuleApi_CheckDistance(lua_State *L, int arg);

// Sets the agent view's methods (neighbour, get, set, random, terrain, nearest_agent,
// nearest_obstacle, cast_feeler, silhouette_edge, remove, ...) into the table on top of the stack.
void fbRuleApi_SetMethods(lua_State *L);

// Pushes the world table: width, height, wraps, dt, also callable as fb.world() for width,
// height, wraps (the older spelling). Its metatable is protected.
void fbRuleApi_PushWorld(lua_State *L, const fbWorld *w);

// Pushes what fb.path(name) returns: the path object's x, y, its unit tangent tx, ty (the
// direction it moves in) and its speed (units/s); or nil when the world has no such path.
int fbRuleApi_PushPath(lua_State *L, const fbWorld *w, const char *name);

// Pushes x, y: the player's steering input in [-1, 1] (fb.input in rules and hooks).
int fbRuleApi_PushInput(lua_State *L, const fbWorld *w);

// Pushes vx, vy: the named flow field's velocity at (x, y), bilinear (fb.flow and a:flow in rules,
// fb.flow in hooks). An unknown name raises an error listing the scenario's fields.
int fbRuleApi_PushFlow(lua_State *L, const fbWorld *w, const char *name, double x, double y);

// Pushes dx, dy, dist, nx, ny, inside: the offset from p to the named region's nearest edge point,
// its distance, the unit normal there pointing into the region, and whether p is inside (fb.region
// and a:region). An unknown name raises an error listing the scenario's regions.
int fbRuleApi_PushRegion(lua_State *L, const fbWorld *w, const char *name, fbVec2 p);

// Pushes h, gx, gy: the terrain's height and gradient at (x, y) (fb.terrain in rules and hooks).
int fbRuleApi_PushTerrain(lua_State *L, const fbTerrain *t, double x, double y);

// The distance to the current agent's nearest flock-mate when perception did not keep it for its
// species: perceived now (and kept by perception from the next step on).
double fbRuleApi_NearestNow(fbRuleContext *c);

#endif
