// fit_spec.c — reading the `fit` table of an experiment file, one message per mistake naming the file and the field.
#include "fit_spec.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lua_host.h"
#include "lua_table.h"

static const char *const METHODS[] = {"nelder_mead", "cmaes", "abc_rejection", "abc_smc"};

const char *fbFitMethod_Name(fbFitMethodKind m) { return METHODS[m]; }

bool fbFitMethod_Find(const char *name, fbFitMethodKind *out)
{
  for (int m = 0; m < (int)(sizeof METHODS / sizeof METHODS[0]); ++m) {
    if (strcmp(name, METHODS[m]) == 0) {
      *out = (fbFitMethodKind)m;
      return true;
    }
  }
  return false;
}

double fbFitParam_Value(const fbFitParam *p, double u)
{
  return p->log ? exp(log(p->lo) + u * (log(p->hi) - log(p->lo))) : p->lo + u * (p->hi - p->lo);
}

typedef struct reading {
  fbFitSpec *s;
  const fbExperiment *e;
} reading;

// t[key] as a number in [lo, hi]; absent leaves *out.
static bool number_field(fbTableReader *r, int t, const char *where, const char *key, double lo, double hi,
                         double *out)
{
  int type = lua_getfield(r->L, t, key);
  double v = lua_tonumber(r->L, -1);
  lua_pop(r->L, 1);
  if (type == LUA_TNIL) {
    return true;
  }
  if (type != LUA_TNUMBER || !isfinite(v) || v < lo || v > hi) {
    return fbTable_Fail(r, where, key, "expected a number from %g to %g", lo, hi);
  }
  *out = v;
  return true;
}

// Refuses keys a table does not know: a typo would otherwise be ignored.
static bool known_keys(fbTableReader *r, int t, const char *where, const char *const *keys, int list_items)
{
  lua_State *L = r->L;
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    lua_pop(L, 1);
    bool known = lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1 && lua_tointeger(L, -1) <= list_items;
    for (int k = 0; !known && keys[k] != NULL && lua_type(L, -1) == LUA_TSTRING; ++k) {
      known = strcmp(keys[k], lua_tostring(L, -1)) == 0;
    }
    if (!known) {
      char key[64];
      snprintf(key, sizeof key, "%s", lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(a list item)");
      lua_pop(L, 1);
      return fbTable_Fail(r, where, key, "unknown field");
    }
  }
  return true;
}

// A name at list[1] of the table at t: a --set name or a CSV column.
static bool name_item(fbTableReader *r, int t, const char *where, char *out, size_t len)
{
  lua_rawgeti(r->L, t, 1);
  size_t n = 0;
  const char *name = lua_type(r->L, -1) == LUA_TSTRING ? lua_tolstring(r->L, -1, &n) : NULL;
  bool ok = name != NULL && n > 0 && n < len && strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                               "0123456789_.:-") == n;
  if (ok) {
    snprintf(out, len, "%s", name);
  }
  lua_pop(r->L, 1);
  char first[80];
  snprintf(first, sizeof first, "%s[1]", where);
  return ok || fbTable_Fail(r, first, "", "expected a name (letters, digits, '_', '.')");
}

// { "NAME", lo, hi, log = true } at the top of the stack.
static bool read_param(fbTableReader *r, fbFitParam *p, const char *where)
{
  static const char *const keys[] = {"log", NULL};
  int t = lua_gettop(r->L);
  if (!lua_istable(r->L, t)) {
    return fbTable_Fail(r, where, "", "expected { \"NAME\", low, high } (log = true for a log scale)");
  }
  double range[2] = {NAN, NAN};
  for (int k = 0; k < 2; ++k) {
    lua_rawgeti(r->L, t, k + 2);
    range[k] = lua_type(r->L, -1) == LUA_TNUMBER ? lua_tonumber(r->L, -1) : NAN;
    lua_pop(r->L, 1);
  }
  lua_getfield(r->L, t, "log");
  p->log = lua_toboolean(r->L, -1);
  lua_pop(r->L, 1);
  p->lo = range[0];
  p->hi = range[1];
  if (!known_keys(r, t, where, keys, 3) || !name_item(r, t, where, p->name, sizeof p->name)) {
    return false;
  }
  if (!isfinite(p->lo) || !isfinite(p->hi) || p->lo >= p->hi) {
    return fbTable_Fail(r, where, "", "expected a range low < high as items 2 and 3");
  }
  if (p->log && p->lo <= 0) {
    return fbTable_Fail(r, where, "", "a log scale needs a range above 0 (got low %g)", p->lo);
  }
  return true;
}

static bool read_params(fbTableReader *r, fbFitSpec *s, int fit)
{
  bool ok = true;
  int list = fbTable_Open(r, fit, "fit", "params", &ok);
  if (list == 0) {
    return ok && fbTable_Fail(r, "fit", "params", "required: a list of { \"NAME\", low, high }");
  }
  int n = (int)lua_rawlen(r->L, list);
  if (n < 1 || n > FB_FIT_MAX_PARAMS) {
    ok = fbTable_Fail(r, "fit", "params", "expected 1 to %d parameters (got %d)", FB_FIT_MAX_PARAMS, n);
  }
  for (int k = 1; ok && k <= n; ++k) {
    char where[64];
    snprintf(where, sizeof where, "fit.params[%d]", k);
    lua_rawgeti(r->L, list, k);
    ok = read_param(r, &s->params[k - 1], where);
    lua_pop(r->L, 1);
    for (int j = 0; ok && j < k - 1; ++j) {
      if (strcmp(s->params[j].name, s->params[k - 1].name) == 0) {
        ok = fbTable_Fail(r, where, "", "%s is fitted twice", s->params[j].name);
      }
    }
  }
  s->param_count = n;
  lua_pop(r->L, 1);
  return ok;
}

// { "COLUMN", value = V, from = STEP, to = STEP }.
static bool read_target(fbTableReader *r, fbFitSpec *s, int fit, long steps)
{
  static const char *const keys[] = {"value", "from", "to", NULL};
  bool ok = true;
  int t = fbTable_Open(r, fit, "fit", "target", &ok);
  if (t == 0) {
    return ok && fbTable_Fail(r, "fit", "target", "required: { \"COLUMN\", value = V } (a telemetry column)");
  }
  fbFitTarget *g = &s->target;
  double value = NAN, from = (double)(steps / 2), to = (double)steps;
  ok = known_keys(r, t, "fit.target", keys, 1) && name_item(r, t, "fit.target", g->column, sizeof g->column) &&
       number_field(r, t, "fit.target", "value", -1e300, 1e300, &value) &&
       number_field(r, t, "fit.target", "from", 0, (double)steps, &from) &&
       number_field(r, t, "fit.target", "to", 0, (double)steps, &to);
  if (ok && isnan(value)) {
    ok = fbTable_Fail(r, "fit.target", "value", "required: the value the statistic should have");
  }
  if (ok && from > to) {
    ok = fbTable_Fail(r, "fit.target", "from", "the window's start (%g) is after its end (%g)", from, to);
  }
  g->value = value;
  g->from = (long)from;
  g->to = (long)to;
  g->statistic = fbFitTarget_WindowMean;
  lua_pop(r->L, 1);
  return ok;
}

static bool read_method(fbTableReader *r, fbFitSpec *s, int fit)
{
  int type = lua_getfield(r->L, fit, "method");
  const char *name = type == LUA_TSTRING ? lua_tostring(r->L, -1) : NULL;
  bool found = type == LUA_TNIL || (name != NULL && fbFitMethod_Find(name, &s->method));
  lua_pop(r->L, 1);
  return found || fbTable_Fail(r, "fit", "method", "expected one of nelder_mead, cmaes, abc_rejection, abc_smc");
}

static bool read_fit(lua_State *L, void *ud, char *err, size_t errlen)
{
  static const char *const keys[] = {"params", "target", "method", "budget", "seed", "particles", "quantile", NULL};
  reading *g = ud;
  fbFitSpec *s = g->s;
  fbTableReader reader = {L, g->e->source, err, errlen}, *r = &reader;
  if (!lua_istable(L, 1)) {
    return fbTable_Fail(r, "", "", "must return a table");
  }
  bool ok = true;
  int fit = fbTable_Open(r, 1, "", "fit", &ok);
  if (fit == 0) {
    return ok && fbTable_Fail(r, "", "fit", "required by flockbox fit: { params = ..., target = ..., method = ... }");
  }
  double budget = 200, seed = 1, particles = 50, quantile = -1;
  ok = known_keys(r, fit, "fit", keys, 0) && read_params(r, s, fit) && read_target(r, s, fit, g->e->steps) &&
       read_method(r, s, fit) && number_field(r, fit, "fit", "budget", 1, 1e7, &budget) &&
       number_field(r, fit, "fit", "seed", 0, 9e15, &seed) &&
       number_field(r, fit, "fit", "particles", 2, 100000, &particles) &&
       number_field(r, fit, "fit", "quantile", 0.001, 0.999, &quantile);
  s->budget = (long)budget;
  s->seed = (long long)seed;
  s->particles = (int)particles;
  s->quantile = quantile;  // below 0: the method's default (fit.c, after --method)
  lua_pop(L, 1);
  return ok;
}

bool fbFitSpec_Read(fbFitSpec *s, const fbExperiment *e, char *err, size_t errlen)
{
  memset(s, 0, sizeof *s);
  fbLuaHost host;
  if (!fbLuaHost_Create(&host, (size_t)64 << 20, 5000)) {
    snprintf(err, errlen, "%s: cannot create a Lua state", e->source);
    return false;
  }
  char about[600];
  snprintf(about, sizeof about, "%s: while reading the fit table", e->source);
  reading g = {s, e};
  bool ok = fbLuaHost_RunFile(&host, e->source, err, errlen) &&
            fbLuaHost_ProtectWith(&host, 1, about, read_fit, &g, err, errlen);
  fbLuaHost_Destroy(&host);
  return ok;
}
