// pattern_guard.c — refusing Lua pattern matches whose backtracking could outlast any time limit.
#include "pattern_guard.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>

/*
 * Lua's matcher (lstrlib.c) backtracks: for each start position it tries each way the pattern's
 * variable-length items can split the subject. A single item `x*`, `x+` or `x-` can take any of
 * up to n characters, and a match tries every combination of them, so with q such items (and a
 * `%bxy`, which scans up to n characters for its close) one start costs up to n^q steps, and an
 * unanchored search tries n + 1 starts:
 *   steps <= (n + 1)^(q + 1)        unanchored (find, match, gmatch, gsub)
 *   steps <= (n + 1)^q              anchored with ^ (find, match, gsub)
 * An optional item `x?` doubles the ways at most. The bound is loose (most patterns meet far
 * fewer), but it is cheap and sound, and it is what a library call needs: once inside C, the
 * watchdog's count hook never runs, so `(".-"):rep(8) .. "b"` on 200 characters (200^9 steps)
 * would hang the process. Calls over FB_PATTERN_MAX_STEPS (about a second or two of matching) are
 * refused with an error the rule's messages name; plain finds and patterns with no special
 * character are never refused.
 */
static const char *skip_class(const char *p, const char *end)
{
  if (*p == '%') {
    return p + 2 <= end ? p + 2 : end;
  }
  if (*p == '[') {  // a set: up to its closing ], a leading ] or ^] being part of it
    const char *q = p + 1;
    q += (q < end && *q == '^');
    q += (q < end && *q == ']');
    while (q < end && *q != ']') {
      q += (*q == '%' && q + 1 < end) ? 2 : 1;
    }
    return q < end ? q + 1 : end;
  }
  return p + 1;
}

double fbPatternGuard_Cost(const char *p, size_t plen, size_t n, int anchor_counts)
{
  const char *end = p + plen;
  bool anchored = anchor_counts && p < end && *p == '^';
  int repeats = 0, optional = 0;
  for (p += anchored; p < end;) {
    if (p[0] == '%' && p + 1 < end && p[1] == 'b') {
      repeats++;  // %bxy: a scan for the close
      p = p + 4 <= end ? p + 4 : end;
      continue;
    }
    if (p[0] == '%' && p + 1 < end && p[1] == 'f') {
      p = skip_class(p + 2, end);  // %f[set]: a frontier, one test
      continue;
    }
    if (*p == '(' || *p == ')') {
      p++;
      continue;
    }
    p = skip_class(p, end);
    if (p < end && (*p == '*' || *p == '+' || *p == '-')) {
      repeats++, p++;
    } else if (p < end && *p == '?') {
      optional++, p++;
    }
  }
  double base = (double)n + 1.0;
  return pow(base, repeats + (anchored ? 0 : 1)) * pow(2.0, optional);
}

static bool has_specials(const char *p, size_t len)
{
  for (size_t k = 0; k < len; ++k) {
    if (strchr("^$*+?.([%-", p[k]) != NULL && p[k] != '\0') {
      return true;
    }
  }
  return false;
}

static const char *scientific(double v, char out[16])
{
  snprintf(out, 16, "%.1e", v);
  return out;
}

/*
 * The wrapper (upvalue 1: the library's function, upvalue 2: its name; upvalue 3: true where `^`
 * anchors, i.e. not for gmatch). Arguments are checked as the library would, then passed on as
 * they are.
 */
static int guarded(lua_State *L)
{
  size_t n = 0, plen = 0;
  luaL_checklstring(L, 1, &n);
  const char *p = luaL_checklstring(L, 2, &plen);
  const char *name = lua_tostring(L, lua_upvalueindex(2));
  bool plain = strcmp(name, "find") == 0 && lua_toboolean(L, 4);
  if (!plain && has_specials(p, plen)) {
    lua_Integer init = strcmp(name, "gsub") == 0 ? 1 : luaL_optinteger(L, 3, 1);
    size_t from = init > 0 ? (size_t)(init - 1) : (init < 0 && (size_t)-init <= n ? n - (size_t)-init : 0);
    size_t length = from < n ? n - from : 0;
    double steps = fbPatternGuard_Cost(p, plen, length, lua_toboolean(L, lua_upvalueindex(3)));
    if (steps > FB_PATTERN_MAX_STEPS) {
      char about[16];
      return luaL_error(L,
                        "string.%s: this pattern could backtrack about %s times on %d characters (the limit is "
                        "1e9, since no time limit can stop a library call): simplify it or shorten the string",
                        name, scientific(steps, about), (int)length);
    }
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

void fbPatternGuard_Install(lua_State *L)
{
  static const char *const names[] = {"find", "match", "gmatch", "gsub"};
  lua_getglobal(L, "string");
  for (int k = 0; k < 4; ++k) {
    lua_getfield(L, -1, names[k]);
    lua_pushstring(L, names[k]);
    lua_pushboolean(L, strcmp(names[k], "gmatch") != 0);
    lua_pushcclosure(L, guarded, 3);
    lua_setfield(L, -2, names[k]);
  }
  lua_pop(L, 1);
}
