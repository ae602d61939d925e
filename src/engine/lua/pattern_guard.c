// pattern_guard.c — refusing Lua pattern matches whose backtracking could outlast any time limit.
#define _GNU_SOURCE  // memmem
#include "pattern_guard.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>

#include "fb_math.h"

/*
 * Lua's matcher (lstrlib.c) backtracks: for each start position it tries each way the pattern's
 * variable-length items can split the subject. A single item `x*`, `x+` or `x-` can take any of
 * up to n characters, and a match tries every combination of them, so with q such items (and a
 * `%bxy`, which scans up to n characters for its close) one start costs up to n^q steps, and an
 * unanchored search tries n + 1 starts:
 *   steps <= (n + 1)^(q + 1)        unanchored (find, match, gmatch, gsub)
 *   steps <= (n + 1)^q              anchored with ^ (find, match, gsub)
 * An optional item `x?` doubles the ways at most. Each way walks the pattern once, and one walk is
 * not one step: a set `[...]` costs its length at every character it tests, a back-reference
 * `%1`..`%9` compares up to n characters, and a literal run costs one per character. So
 *   steps <= starts * ways * walk,   walk = sum over the items of (1, set length, or n)
 * and a pattern with no special character at all (matched by Lua's naive search, which compares
 * the whole needle at every start) costs (n + 1) * m. The bound is loose (most patterns meet far
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
  double walk = 1.0;  // the steps of one walk along the pattern
  for (p += anchored; p < end;) {
    if (p[0] == '%' && p + 1 < end && p[1] == 'b') {
      repeats++;  // %bxy: a scan for the close
      p = p + 4 <= end ? p + 4 : end;
      continue;
    }
    if (p[0] == '%' && p + 1 < end && p[1] == 'f') {
      const char *set = p + 2;
      p = skip_class(set, end);  // %f[set]: a frontier, two tests of its set
      walk += 2.0 * (double)(p - set);
      continue;
    }
    if (p[0] == '%' && p + 1 < end && p[1] >= '0' && p[1] <= '9') {
      walk += (double)n;  // a back-reference compares the capture, up to n characters
      p += 2;
      continue;
    }
    if (*p == '(' || *p == ')') {
      p++;
      continue;
    }
    const char *item = p;
    p = skip_class(p, end);
    walk += *item == '[' ? (double)(p - item) : 1.0;
    if (p < end && (*p == '*' || *p == '+' || *p == '-')) {
      repeats++, p++;
    } else if (p < end && *p == '?') {
      optional++, p++;
    }
  }
  double base = (double)n + 1.0;
  return fbMath_Pow(base, repeats + (anchored ? 0 : 1)) * fbMath_Pow(2.0, optional) * walk;
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

/*
 * A plain find (or a find of a pattern with no special character) is a substring search. Lua's
 * own compares the whole needle at each place its first character occurs: O(n m), minutes for a
 * long needle in a long subject of the same letter. glibc's memmem (the two-way algorithm) is
 * linear, and gives the same first occurrence: the same answer, at a cost no script can inflate.
 */
static int plain_find(lua_State *L, size_t n, size_t m)
{
  const char *s = lua_tostring(L, 1);
  const char *needle = lua_tostring(L, 2);
  lua_Integer init = luaL_optinteger(L, 3, 1);
  // Lua's posrelat: negative counts from the end; then clamped to 1 .. n + 1
  if (init < 0) {
    init = (size_t)-init > n ? 1 : (lua_Integer)n + init + 1;
  } else if (init == 0) {
    init = 1;
  }
  if (init > (lua_Integer)n + 1) {
    luaL_pushfail(L);
    return 1;
  }
  const char *at = memmem(s + init - 1, n - (size_t)(init - 1), needle, m);
  if (at == NULL) {
    luaL_pushfail(L);
    return 1;
  }
  lua_pushinteger(L, (lua_Integer)(at - s) + 1);
  lua_pushinteger(L, (lua_Integer)(at - s) + (lua_Integer)m);
  return 2;
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
  bool find = strcmp(name, "find") == 0;
  if (find && (lua_toboolean(L, 4) || !has_specials(p, plen))) {
    return plain_find(L, n, plen);
  }
  // every other call runs Lua's matcher, whose backtracking the bound below covers
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
