// sweep_design.c — reading an experiment's design = { ... }, and its points in the unit cube and in each parameter's range.
#include "sweep_design.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "names.h"

#define MAX_DESIGN_POINTS 100000L

// One parameter { "NAME", lo, hi, log = true } on top of the stack, the design's k-th (1-based).
static bool read_parameter(fbTableReader *r, fbExperimentDesign *d, int k)
{
  lua_State *L = r->L;
  int item = lua_gettop(L);
  char where[64];
  snprintf(where, sizeof where, "design.parameters[%d]", k);
  if (!lua_istable(L, item) || lua_rawlen(L, item) != 3) {
    return fbTable_Fail(r, where, "", "expected { \"NAME\", low, high } (and log = true for a log scale)");
  }
  lua_rawgeti(L, item, 1);
  const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
  char why[128];
  if (name[0] == '\0' || strlen(name) >= sizeof d->name[0] || !fbName_CheckColumn(name, strlen(name), true, why, sizeof why)) {
    return fbTable_Fail(r, where, "", "item 1: expected a --set name such as \"boid.max_speed\"");
  }
  double range[2];
  for (int i = 0; i < 2; ++i) {
    lua_rawgeti(L, item, i + 2);
    range[i] = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : NAN;
  }
  lua_getfield(L, item, "log");
  const bool log_scale = lua_toboolean(L, -1);
  if (!isfinite(range[0]) || !isfinite(range[1]) || !(range[0] < range[1]) || (log_scale && !(range[0] > 0))) {
    return fbTable_Fail(r, where, "", "expected low < high, finite%s", log_scale ? ", and low > 0 (log = true)" : "");
  }
  for (int a = 0; a < d->parameters; ++a) {
    if (strcmp(d->name[a], name) == 0) {
      return fbTable_Fail(r, where, "", "'%s' is already a parameter", name);
    }
  }
  const int a = d->parameters++;
  snprintf(d->name[a], sizeof d->name[a], "%s", name);
  d->lo[a] = range[0];
  d->hi[a] = range[1];
  d->log[a] = log_scale;
  lua_settop(L, item);
  return true;
}

// The value of parameter a at u in [0, 1]: linear, or geometric on a log scale.
double fbSweepDesign_Value(const fbExperimentDesign *d, int a, double u)
{
  return d->log[a] ? d->lo[a] * pow(d->hi[a] / d->lo[a], u) : d->lo[a] + u * (d->hi[a] - d->lo[a]);
}

void fbSweepDesign_Make(const fbExperimentDesign *d, fbDesign *design)
{
  if (d->method - 1 == FB_DESIGN_MORRIS) {
    fbDesign_Morris(design, d->parameters, (int)d->count, d->levels, (uint64_t)d->seed);
  } else {
    fbDesign_LatinHypercube(design, d->parameters, d->count, (uint64_t)d->seed);
  }
}

static bool read_whole(fbTableReader *r, int t, const char *key, long lo, long hi, long *out)
{
  lua_State *L = r->L;
  int type = lua_getfield(L, t, key);
  int exact = 0;
  long long v = type == LUA_TNUMBER ? (long long)lua_tointegerx(L, -1, &exact) : 0;
  lua_pop(L, 1);
  if (type != LUA_TNIL && (!exact || v < lo || v > hi)) {
    return fbTable_Fail(r, "design", key, "expected a whole number from %ld to %ld", lo, hi);
  }
  *out = type == LUA_TNIL ? *out : (long)v;
  return true;
}

// The method, the counts and the seed of the table at t.
static bool read_settings(fbTableReader *r, fbExperimentDesign *d, int t)
{
  lua_State *L = r->L;
  lua_getfield(L, t, "method");
  const char *method = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
  d->method = strcmp(method, "latin") == 0 ? FB_DESIGN_LATIN_HYPERCUBE + 1
              : strcmp(method, "morris") == 0 ? FB_DESIGN_MORRIS + 1 : 0;
  lua_pop(L, 1);
  if (d->method == 0) {
    return fbTable_Fail(r, "design", "method", "expected \"latin\" (Latin hypercube) or \"morris\" (elementary effects)");
  }
  const bool morris = d->method - 1 == FB_DESIGN_MORRIS;
  long count = morris ? 10 : 50, levels = 4, seed = 1;
  bool ok = read_whole(r, t, morris ? "trajectories" : "samples", 2, MAX_DESIGN_POINTS / 10, &count) &&
            read_whole(r, t, "levels", 2, 1000, &levels) && read_whole(r, t, "seed", 0, 0x7fffffffL, &seed);
  if (ok && levels % 2 != 0) {
    ok = fbTable_Fail(r, "design", "levels", "expected an even number (Morris 1991: every level sampled alike)");
  }
  d->count = count;
  d->levels = (int)levels;
  d->seed = seed;
  return ok;
}

bool fbSweepDesign_Read(fbTableReader *r, int t, fbExperimentDesign *d)
{
  lua_State *L = r->L;
  bool ok = true;
  memset(d, 0, sizeof *d);
  int design = fbTable_Open(r, t, "", "design", &ok);
  if (design == 0) {
    return ok;
  }
  ok = read_settings(r, d, design);
  int list = ok ? fbTable_Open(r, design, "design", "parameters", &ok) : 0;
  int n = list ? (int)lua_rawlen(L, list) : 0;
  if (ok && (n == 0 || n > FB_DESIGN_MAX_PARAMETERS)) {
    ok = fbTable_Fail(r, "design", "parameters", "expected 1 to %d parameters { \"NAME\", low, high }",
                      FB_DESIGN_MAX_PARAMETERS);
  }
  for (int k = 1; ok && k <= n; ++k) {
    lua_rawgeti(L, list, k);
    ok = read_parameter(r, d, k);
    lua_settop(L, list);
  }
  d->method = ok ? d->method : 0;
  lua_settop(L, design - 1);
  return ok;
}
