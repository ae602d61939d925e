// show_value.h — any Lua value as readable text for a person (the console): tables to a depth, keys sorted, cycles marked, long ones cut.
#ifndef FB_SHOW_VALUE_H
#define FB_SHOW_VALUE_H

#include <lua.h>

#include "fb.h"

/*
 * Text that stops growing at its capacity: what no longer fits is dropped and `cut` set, so a
 * table of a million entries or a string of a gigabyte costs a bounded answer. s is always
 * zero-terminated.
 */
typedef struct fbShowText {
  char *s;
  size_t cap, len;
  bool cut;
} fbShowText;

fbShowText fbShowText_Of(char *buffer, size_t cap);
void fbShowText_Add(fbShowText *t, const char *format, ...) __attribute__((format(printf, 2, 3)));

// How far a table is opened, and how many of a table's entries are shown before "... (N more)".
#define FB_SHOW_DEPTH 3
#define FB_SHOW_ENTRIES 24

/*
 * Appends the value at idx as a person reads it. Top-level strings appear as they are (as Lua's
 * print shows them); strings inside tables are quoted. A table shows its list part in order, then
 * its other keys sorted (numbers, then strings, then the rest), to FB_SHOW_DEPTH levels; a table
 * met again on the way down is marked <cycle>. Only raw reads: __index, __pairs and __len never
 * run. A __tostring runs, in a protected call of its own: one that raises is shown as failing, one
 * that loops is stopped by the watchdog of the protected call this must run inside (lua_host.h).
 */
void fbLua_Show(lua_State *L, int idx, bool top, fbShowText *out);

// As fbLua_Show (strings quoted), leaving out a table's entries that are C functions: the data of
// an agent view `a` without its methods.
void fbLua_ShowData(lua_State *L, int idx, fbShowText *out);

/*
 * Appends the value at idx as a Lua expression that builds a copy of it in another state: numbers
 * exact, strings quoted, tables raw to FB_SHOW_SOURCE_DEPTH levels and FB_SHOW_SOURCE_ENTRIES entries;
 * functions, userdata and threads as strings that name them, cycles and what lies deeper as nil. No
 * metamethod runs. For a failing rule's locals, taken while its frame is alive, to be read in the
 * console's state after the step (console.h). Check out->cut: cut text is not valid Lua.
 */
#define FB_SHOW_SOURCE_DEPTH 5
#define FB_SHOW_SOURCE_ENTRIES 1000
void fbLua_ShowSource(lua_State *L, int idx, fbShowText *out);

#endif
