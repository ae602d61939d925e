// library_guard.h — bounds the work of the library calls (besides patterns) that loop inside C, where no time limit reaches.
#ifndef FB_LIBRARY_GUARD_H
#define FB_LIBRARY_GUARD_H

#include <lua.h>

/*
 * The watchdog stops a script at its next Lua instruction or function call. A library function
 * that loops in C over plain values makes neither, so a count the script chose can hang the
 * process past every limit: table.move({}, 1, 2^50, 2), table.insert or table.remove on a table
 * whose __len claims 2^50 entries, string.rep("", 2^50). These are replaced in the state's table
 * and string libraries by versions that do the same thing within FB_LIBRARY_MAX_SPAN elements and
 * refuse more with an error naming the call (no table a script can hold in its memory budget
 * comes near it). Pattern matching has its own guard (pattern_guard.h).
 */
void fbLibraryGuard_Install(lua_State *L);

#define FB_LIBRARY_MAX_SPAN ((lua_Integer)1 << 26)

#endif
