// scenario_paths.c — a scenario's paths: names, control points, closed or open, speed or speed table, start.
#include "scenario_paths.h"

#include <string.h>

// How many pairs the list at index t holds (points { {x, y}, ... } or keys { {time, speed}, ... });
// false, naming key, when it holds more than max.
static bool pair_count(fbTableReader *r, int t, const char *where, const char *key, int max, int *n)
{
  *n = (int)lua_rawlen(r->L, t);
  return *n <= max || fbTable_Fail(r, where, key, "at most %d entries, got %d", max, *n);
}

// The k-th pair (from 0) of the list at index t: two finite numbers.
static bool read_pair(fbTableReader *r, int t, const char *where, const char *key, int k, double pair[2])
{
  char item[64];
  snprintf(item, sizeof item, "%s[%d]", key, k + 1);
  lua_rawgeti(r->L, t, k + 1);
  bool ok = fbTable_Numbers(r, lua_gettop(r->L), where, item, pair, 2);
  lua_pop(r->L, 1);
  return ok;
}

// The pairs go straight into the def being read, which frees them with itself: no scratch.
static bool read_points(fbTableReader *r, fbPathDef *p, int t, const char *where)
{
  lua_State *L = r->L;
  bool ok = true;
  int list = fbTable_Open(r, t, where, "points", &ok);
  if (!list) {
    return ok ? fbTable_Fail(r, where, "points", "every path needs its control points { {x, y}, ... }") : false;
  }
  int n = 0;
  ok = pair_count(r, list, where, "points", FB_PATH_MAX_POINTS, &n);
  n = ok ? n : 0;
  p->points = malloc(sizeof *p->points * (size_t)(n > 0 ? n : 1));
  FB_ASSERT(p->points != NULL);
  for (int k = 0; ok && k < n; ++k) {
    double xy[2];
    ok = read_pair(r, list, where, "points", k, xy);
    p->points[k] = ok ? fbV(xy[0], xy[1]) : fbV(0, 0);
  }
  lua_pop(L, 1);
  p->point_count = ok ? n : 0;
  return ok;
}

// speed = 8 (constant) or speed = { {0, 0}, {20, 14} } (time, speed keys).
static bool read_speed(fbTableReader *r, fbPathDef *p, int t, const char *where)
{
  lua_State *L = r->L;
  int type = lua_getfield(L, t, "speed");
  bool ok = true;
  if (type == LUA_TNUMBER) {
    double v = lua_tonumber(L, -1);
    ok = isfinite(v) || fbTable_Fail(r, where, "speed", "expected a finite number");
    if (ok) {
      fbPathDef_SetSpeed(p, v);
    }
  } else if (type == LUA_TTABLE) {
    int n = 0, list = lua_gettop(L);
    ok = pair_count(r, list, where, "speed", FB_PATH_MAX_KEYS, &n);
    if (ok && n == 0) {
      ok = fbTable_Fail(r, where, "speed", "expected a number or { {time, speed}, ... } with at least one key");
    }
    if (ok) {  // the old keys go at once: a failed read leaves the def with none
      free(p->keys);
      p->keys = malloc(sizeof *p->keys * (size_t)n);
      FB_ASSERT(p->keys != NULL);
      p->key_count = 0;
      for (int k = 0; ok && k < n; ++k) {
        double pair[2];
        ok = read_pair(r, list, where, "speed", k, pair);
        p->keys[k] = ok ? (fbSpeedKey){pair[0], pair[1]} : (fbSpeedKey){0, 0};
      }
      p->key_count = ok ? n : 0;
    }
  } else if (type != LUA_TNIL) {
    ok = fbTable_Fail(r, where, "speed", "expected a number or { {time, speed}, ... }, got a %s",
                      lua_typename(L, type));
  }
  lua_pop(L, 1);
  return ok;
}

static bool read_path(fbTableReader *r, fbScenarioDef *d, int t, const char *where)
{
  fbPathDef *p = &d->paths[d->path_count++];  // counted at once: fbScenarioDef_Delete frees what it holds
  memset(p, 0, sizeof *p);
  if (!fbTable_ReadDef(r, t, where, &fbPathSchema, p)) {
    return false;
  }
  if (p->name[0] == '\0') {
    return fbTable_Fail(r, where, "name", "every path needs a name");
  }
  return read_points(r, p, t, where) && read_speed(r, p, t, where);
}

bool fbScenario_ReadPaths(fbTableReader *r, fbScenarioDef *d, int root)
{
  lua_State *L = r->L;
  bool ok = true;
  int t = fbTable_Open(r, root, "", "paths", &ok);
  if (!t) {
    return ok;
  }
  int n = (int)lua_rawlen(L, t);
  lua_pushnil(L);
  while (ok && lua_next(L, t) != 0) {  // a list only: paths = { route = {...} } would be read as nothing
    lua_pop(L, 1);
    if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > n) {
      ok = fbTable_Fail(r, "", "paths", "expected a list { { name = ..., points = ... }, ... }");
      lua_pop(L, 1);
    }
  }
  if (ok && n > FB_MAX_PATHS) {
    ok = fbTable_Fail(r, "", "paths", "at most %d paths, got %d", FB_MAX_PATHS, n);
  }
  for (int k = 1; ok && k <= n; ++k) {
    char where[32];
    snprintf(where, sizeof where, "paths[%d]", k);
    if (lua_rawgeti(L, t, k) != LUA_TTABLE) {
      ok = fbTable_Fail(r, where, "", "expected a table { name = ..., points = ... }");
    } else {
      ok = read_path(r, d, lua_gettop(L), where);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return ok;
}
