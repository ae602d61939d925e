// agent_view.h — the table `a` each rule reads its agent through: one per rule, holding only what that rule reads.
#ifndef FB_AGENT_VIEW_H
#define FB_AGENT_VIEW_H

#include <lua.h>

#include "rule_api.h"

/*
 * Every rule of every species has a view table of its own, so that nothing one rule writes into
 * `a` is ever seen by another. A view holds the methods (a:neighbour, ...) and only the fields
 * its rule has read: a read of a field it lacks goes to __index, which answers for the current
 * agent and adds the field to the rule's mask. Per species, one generated Lua function takes this
 * step's values and stores them into all its rules' views with plain table stores: cheaper than
 * setting each field through the C API (a call and two or three stores per field instead of
 * three API calls per field). It is generated again whenever a mask grows.
 */

#define FB_VIEW_KEYS 17  // x, y, vx, vy, hx, hy, cx, cy, avx, avy, sx, sy, nearest_dist, energy, speed, n, id

typedef enum fbViewSource {
  FB_FROM_AGENTS,      // a double array of fbAgents (or a declared per-agent field)
  FB_FROM_AGGREGATES,  // a double array of fbAggregates
  FB_FROM_SPEED,       // |v|
  FB_FROM_COUNT,       // flock-mates seen (an integer)
  FB_FROM_ID,          // the agent's id (an integer)
  FB_FROM_NEAREST,     // the nearest flock-mate's distance, perceived on demand if not kept
} fbViewSource;

// One key of a view, resolved to this step's arrays.
typedef struct fbViewValue {
  int key;
  fbViewSource source;
  const double *values;  // FB_FROM_AGENTS, FB_FROM_AGGREGATES
} fbViewValue;

// What a species' fill function takes, in order, for the current step.
typedef struct fbViewPlan {
  int count;
  fbViewValue value[FB_VIEW_KEYS + FB_MAX_FIELDS];
} fbViewPlan;

typedef struct fbAgentViews {
  int view_ref[FB_MAX_SPECIES][FB_MAX_RULES];    // LUA_NOREF until first used
  uint64_t mask[FB_MAX_SPECIES][FB_MAX_RULES];   // bit k: the rule has read key k
  int fill_ref[FB_MAX_SPECIES];                  // the species' fill function (LUA_NOREF: none yet)
  uint64_t filled[FB_MAX_SPECIES][FB_MAX_RULES]; // the masks that function fills
  int metatable_ref;
} fbAgentViews;

// Creates the views' shared (protected) metatable in L.
void fbAgentViews_Init(fbAgentViews *v, lua_State *L);

// Pushes the view of rule k of species s, creating it on first use.
void fbAgentViews_Push(fbAgentViews *v, lua_State *L, int s, int k);

// Adds to the mask of rule k of species s every view key and declared field among `names`
// (';'-separated): the fields its source reads, so that its view is complete from the first agent.
void fbAgentViews_Prime(fbAgentViews *v, const fbWorld *w, int s, int k, const char *names);

// The fill function of species s (its rules' masks as they are now, generated again when one
// grew) and its plan for this step. Pushes the function, or nil when its rules read no field.
void fbAgentViews_Prepare(fbAgentViews *v, lua_State *L, const fbRuleContext *c, int s, int rules,
                          fbViewPlan *plan);

// True once a rule of species s read a field its view lacked since the plan was made.
bool fbAgentViews_Grew(const fbAgentViews *v, int s, int rules);

// Calls the fill function at stack index `fill` with agent i's values, as the plan says.
void fbAgentViews_Fill(lua_State *L, int fill, const fbViewPlan *plan, fbRuleContext *c, int i);

// View key k (0 .. FB_VIEW_KEYS - 1): its name, type and help, for the editor's types.
fbApiField fbAgentViews_Key(int k);

// Pushes the value of view key k for the current agent (__index, and tests).
void fbAgentViews_PushValue(lua_State *L, fbRuleContext *c, int k);

#endif
