// pattern_guard.h — bounds the cost of Lua pattern matching, the one library call a time limit cannot interrupt.
#ifndef FB_PATTERN_GUARD_H
#define FB_PATTERN_GUARD_H

#include <lua.h>

// Wraps string.find, match, gmatch and gsub in the state's string library (and so the s:find(...)
// methods): a call whose pattern could backtrack more than FB_PATTERN_MAX_STEPS times on its
// subject is refused with an error naming the function, instead of running for minutes inside C
// where the watchdog never gets control.
void fbPatternGuard_Install(lua_State *L);

// The worst-case backtracking steps of pattern p on a subject of n characters (see the .c).
double fbPatternGuard_Cost(const char *p, size_t plen, size_t n, int anchor_counts);

#define FB_PATTERN_MAX_STEPS 1e9

#endif
