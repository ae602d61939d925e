// mates.h — a rule's flock-mates as arrays (a.mates.dx[k], ...), filled by C once per agent, only with what the rule reads.
#ifndef FB_MATES_H
#define FB_MATES_H

#include <lua.h>

#include "rule_api.h"

/*
 * a:neighbour(k) costs a call into C for every flock-mate a rule walks. a.mates holds the same
 * numbers as arrays a rule reads at table speed:
 *
 *   local m = a.mates
 *   local dx, dy, dist = m.dx, m.dy, m.dist
 *   for k = 1, a.n do  ... dx[k], dy[k], dist[k] ...  end
 *
 * Each rule has its own mates table (as it has its own view), holding only the arrays it has
 * read: the first read of an array goes to __index, which makes it, fills it for the agent at
 * hand and marks it, and from the next agent on C refills every marked array before the rule runs
 * (fbMates_Fill). Entry k of every array is what a:neighbour(k) returns, in the same order; an
 * array holds exactly a.n entries (stale ones are cleared), so # and ipairs work too.
 */

#define FB_MATE_ARRAYS 6  // dx, dy, dist, vx, vy, id

typedef struct fbMates {
  int table_ref[FB_MAX_SPECIES][FB_MAX_RULES];                  // LUA_NOREF until the rule's view is made
  int array_ref[FB_MAX_SPECIES][FB_MAX_RULES][FB_MATE_ARRAYS];  // LUA_NOREF until the rule reads it
  uint8_t mask[FB_MAX_SPECIES][FB_MAX_RULES];                   // bit a: the rule has read array a
  int length[FB_MAX_SPECIES][FB_MAX_RULES];                     // entries its arrays hold now
} fbMates;

void fbMates_Init(fbMates *m);

// Pushes the mates table of rule k of species s, making it on first use.
void fbMates_Push(fbMates *m, lua_State *L, int s, int k);

// Marks the arrays whose names the rule's source mentions beside `mates` (names: every .name it
// mentions, ';'-separated), so that they are made at its first agent, not in the middle of a run
// the first time a rare branch reads them.
void fbMates_Prime(fbMates *m, int s, int k, const char *names);

// Makes the marked arrays of rule k of species s that are not made yet (each range starts so): a
// rule that runs for the first time late in a run, on a rare agent, allocates nothing then.
void fbMates_Make(fbMates *m, lua_State *L, int s, int k);

// Refills the arrays rule k of species s has read with agent i's flock-mates (i is c->agent).
void fbMates_Fill(fbMates *m, lua_State *L, fbRuleContext *c, int s, int k);

#endif
