// sweep_design.c — reading an experiment's design = { ... } and turning its points into zipped axes of --set values.
#include "sweep_design.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "names.h"

#define MAX_DESIGN_POINTS 100000L

// One parameter { "NAME", lo, hi, log = true } on top of the stack, the design's k-th (1-based).
static bool read_parameter(fbTableReader *r, fbExperiment *e, int k)
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
  if (name[0] == '\0' || !fbName_CheckColumn(name, strlen(name), true, why, sizeof why)) {
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
  const int a = e->axis_count++;
  e->axes[a].name = strdup(name);
  e->design.lo[a] = range[0];
  e->design.hi[a] = range[1];
  e->design.log[a] = log_scale;
  lua_settop(L, item);
  return true;
}

// The value of parameter a at u in [0, 1]: linear, or geometric on a log scale.
static double value_at(const fbExperimentDesign *d, int a, double u)
{
  return d->log[a] ? d->lo[a] * pow(d->hi[a] / d->lo[a], u) : d->lo[a] + u * (d->hi[a] - d->lo[a]);
}

void fbSweepDesign_Make(const fbExperiment *e, fbDesign *d)
{
  const fbExperimentDesign *s = &e->design;
  if (s->method - 1 == FB_DESIGN_MORRIS) {
    fbDesign_Morris(d, e->axis_count, (int)s->count, s->levels, (uint64_t)s->seed);
  } else {
    fbDesign_LatinHypercube(d, e->axis_count, s->count, (uint64_t)s->seed);
  }
}

// Every point's value of every parameter, as text that reads back as the same double.
static void make_axes(fbExperiment *e)
{
  fbDesign d;
  fbSweepDesign_Make(e, &d);
  for (long p = 0; p < d.points; ++p) {
    for (int a = 0; a < e->axis_count; ++a) {
      char text[64];
      snprintf(text, sizeof text, "%.17g", value_at(&e->design, a, d.u[p * d.factors + a]));
      fbTextList_Add(&e->axes[a].values, text);
    }
  }
  fbDesign_Free(&d);
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

bool fbSweepDesign_Read(fbTableReader *r, fbExperiment *e, int t)
{
  lua_State *L = r->L;
  bool ok = true;
  int design = fbTable_Open(r, t, "", "design", &ok);
  if (design == 0) {
    return ok;
  }
  if (e->axis_count > 0) {
    return fbTable_Fail(r, "", "design", "a design lists its own points: leave grid out");
  }
  ok = read_settings(r, &e->design, design);
  int list = ok ? fbTable_Open(r, design, "design", "parameters", &ok) : 0;
  int n = list ? (int)lua_rawlen(L, list) : 0;
  if (ok && (n == 0 || n > FB_SWEEP_MAX_AXES)) {
    ok = fbTable_Fail(r, "design", "parameters", "expected 1 to %d parameters { \"NAME\", low, high }", FB_SWEEP_MAX_AXES);
  }
  for (int k = 1; ok && k <= n; ++k) {
    lua_rawgeti(L, list, k);
    ok = read_parameter(r, e, k);
    lua_settop(L, list);
  }
  if (ok) {
    make_axes(e);
  } else {
    e->design.method = 0;
  }
  lua_settop(L, design - 1);
  return ok;
}

bool fbSweepDesign_Check(const fbExperiment *e, char *err, size_t errlen)
{
  for (int a = 0; e->design.method != 0 && a < e->axis_count; ++a) {
    if (e->axes[a].from_option || e->axes[a].values.count != e->axes[0].values.count) {
      snprintf(err, errlen, "--grid %s: the experiment has a design, whose points are listed: no grid with it",
               e->axes[a].name);
      return false;
    }
  }
  return true;
}
