// scenario_flow.c — a scenario's flow fields (a PNG, or a Lua function sampled now) and regions (polygons), read by name.
#include "scenario_flow.h"

#include <string.h>

#include "scenario_route.h"

typedef char Name[FB_NAME_LEN];

static int by_name(const void *a, const void *b) { return strcmp(a, b); }

// The string keys of the table at t, sorted: entries are read in the same order on every run
// (Lua's own traversal order of a hash is not fixed). false for a key that is not a short name or
// for more than max of them.
static bool sorted_names(fbTableReader *r, int t, const char *table, int max, Name *out, int *n)
{
  lua_State *L = r->L;
  *n = 0;
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    lua_pop(L, 1);
    const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    bool ok = name != NULL && strlen(name) > 0 && strlen(name) < FB_NAME_LEN;
    ok = ok ? (*n < max || fbTable_Fail(r, "", table, "at most %d entries", max))
            : fbTable_Fail(r, "", table, "keys must be names of 1 to %d characters: %s = { ... }", FB_NAME_LEN - 1,
                           table);
    if (!ok) {
      lua_pop(L, 1);
      return false;
    }
    snprintf(out[(*n)++], FB_NAME_LEN, "%s", name);
  }
  qsort(out, (size_t)*n, sizeof *out, by_name);
  return true;
}

// ---- flow fields ---------------------------------------------------------------------------------

// Calls the function at index fn for one sample; false with the field's message when it fails or
// returns anything but two finite numbers.
static bool sample_once(fbTableReader *r, int fn, const char *where, fbVec2 at, double *vx, double *vy)
{
  lua_State *L = r->L;
  lua_pushvalue(L, fn);
  lua_pushnumber(L, at.x);
  lua_pushnumber(L, at.y);
  if (lua_pcall(L, 2, 2, 0) != LUA_OK) {
    bool ok = fbTable_Fail(r, where, "fn", "at (%g, %g): %s", at.x, at.y,
                           lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "an error that is not a string");
    lua_pop(L, 1);
    return ok;
  }
  int tx = lua_type(L, -2), ty = lua_type(L, -1);
  *vx = tx == LUA_TNUMBER ? lua_tonumber(L, -2) : NAN;
  *vy = ty == LUA_TNUMBER ? lua_tonumber(L, -1) : NAN;
  lua_pop(L, 2);
  if (tx != LUA_TNUMBER || ty != LUA_TNUMBER) {
    return fbTable_Fail(r, where, "fn", "at (%g, %g): returned a %s and a %s; expected two numbers vx, vy", at.x, at.y,
                        lua_typename(L, tx), lua_typename(L, ty));
  }
  if (!(fabs(*vx) <= FB_MAX_MAGNITUDE && fabs(*vy) <= FB_MAX_MAGNITUDE)) {
    return fbTable_Fail(r, where, "fn", "at (%g, %g): returned (%g, %g); expected finite numbers within +-%g", at.x,
                        at.y, *vx, *vy, FB_MAX_MAGNITUDE);
  }
  return true;
}

// Samples fn at every cell centre of the grid `cell` apart over the world read so far.
static bool sample_function(fbTableReader *r, fbFlowDef *f, const fbWorldDef *world, int fn, const char *where)
{
  if (f->cell <= 0) {
    f->cell = fmin(world->width, world->height) / 64;
  }
  double cells = fbFlowGrid_Size(world->width, world->height, f->cell, &f->cols, &f->rows);
  if (cells > FB_FLOW_MAX_CELLS) {
    return fbTable_Fail(r, where, "cell", "%g units over a %gx%g world makes %.0f samples; at most %d (a larger cell)",
                        f->cell, world->width, world->height, cells, FB_FLOW_MAX_CELLS);
  }
  f->width = world->width;
  f->height = world->height;
  size_t n = (size_t)f->cols * (size_t)f->rows;
  f->vx = malloc(sizeof *f->vx * n);
  f->vy = malloc(sizeof *f->vy * n);
  FB_ASSERT(f->vx != NULL && f->vy != NULL);
  for (int j = 0; j < f->rows; ++j) {
    for (int i = 0; i < f->cols; ++i) {
      fbVec2 at = fbFlowGrid_Centre(i, j, f->cols, f->rows, f->width, f->height);
      size_t k = (size_t)j * (size_t)f->cols + (size_t)i;
      if (!sample_once(r, fn, where, at, &f->vx[k], &f->vy[k])) {
        return false;
      }
    }
  }
  return true;
}

static bool read_flow(fbTableReader *r, fbScenarioDef *d, int t, const char *name)
{
  lua_State *L = r->L;
  char where[FB_NAME_LEN + 24];
  snprintf(where, sizeof where, "flow_fields.%.*s", FB_NAME_LEN - 1, name);
  fbFlowDef *f = &d->flows[d->flow_count++];  // counted at once: fbScenarioDef_Delete frees what it holds
  memset(f, 0, sizeof *f);
  snprintf(f->name, sizeof f->name, "%.*s", FB_NAME_LEN - 1, name);
  if (lua_type(L, t) != LUA_TTABLE) {
    return fbTable_Fail(r, "flow_fields", name, "expected { png = ..., speed = ... }, { fn = function(x, y) ... end } or { route = { to = ... } }");
  }
  if (!fbTable_ReadDef(r, t, where, &fbFlowSchema, f)) {
    return false;
  }
  if (lua_getfield(L, t, "route") != LUA_TNIL) {
    bool alone = f->png[0] == '\0' && lua_getfield(L, t, "fn") == LUA_TNIL;
    lua_pop(L, 1);
    bool ok = (lua_type(L, -1) == LUA_TTABLE && alone) ||
              fbTable_Fail(r, where, "route", "expected route = { to = ... } with no png or fn beside it");
    ok = ok && fbScenario_ReadRoute(r, f, &d->world, lua_gettop(L), where);
    lua_pop(L, 1);
    return ok;
  }
  lua_pop(L, 1);
  int type = lua_getfield(L, t, "fn");
  bool ok = true;
  if (type != LUA_TNIL && type != LUA_TFUNCTION) {
    ok = fbTable_Fail(r, where, "fn", "expected function(x, y) return vx, vy end, got a %s", lua_typename(L, type));
  } else if ((type == LUA_TFUNCTION) == (f->png[0] != '\0')) {
    ok = fbTable_Fail(r, where, "", "give either png = \"NAME.png\" with its speed, or fn = function(x, y) ... end");
  } else if (type == LUA_TFUNCTION) {
    ok = sample_function(r, f, &d->world, lua_gettop(L), where);
  } else if (f->speed <= 0) {
    ok = fbTable_Fail(r, where, "speed", "a PNG field needs the speed of full red or green, units/s (above 0)");
  }
  lua_pop(L, 1);
  return ok;
}

bool fbScenario_ReadFlows(fbTableReader *r, fbScenarioDef *d, int root)
{
  bool ok = true;
  int t = fbTable_Open(r, root, "", "flow_fields", &ok);
  if (!t) {
    return ok;
  }
  Name names[FB_MAX_FLOW_FIELDS];  // 768 bytes: on the stack, so two sims may read at once
  int n = 0;
  ok = sorted_names(r, t, "flow_fields", FB_MAX_FLOW_FIELDS, names, &n);
  for (int k = 0; ok && k < n; ++k) {
    lua_getfield(r->L, t, names[k]);
    ok = read_flow(r, d, lua_gettop(r->L), names[k]);
    lua_pop(r->L, 1);
  }
  lua_pop(r->L, 1);
  return ok;
}

// ---- regions --------------------------------------------------------------------------------------

static bool read_region(fbTableReader *r, fbScenarioDef *d, int t, const char *name)
{
  lua_State *L = r->L;
  fbRegionDef *g = &d->regions[d->region_count++];
  memset(g, 0, sizeof *g);
  snprintf(g->name, sizeof g->name, "%.*s", FB_NAME_LEN - 1, name);
  if (lua_type(L, t) != LUA_TTABLE) {
    return fbTable_Fail(r, "regions", name, "expected a polygon { {x, y}, ... }");
  }
  int n = (int)lua_rawlen(L, t);
  if (n < 3 || n > FB_REGION_MAX_POINTS) {
    return fbTable_Fail(r, "regions", name, "a region needs 3 to %d points { {x, y}, ... }, got %d",
                        FB_REGION_MAX_POINTS, n);
  }
  g->points = malloc(sizeof *g->points * (size_t)n);
  FB_ASSERT(g->points != NULL);
  for (int k = 0; k < n; ++k) {
    char item[FB_NAME_LEN + 24];
    snprintf(item, sizeof item, "%.*s[%d]", FB_NAME_LEN - 1, name, k + 1);
    double xy[2];
    lua_rawgeti(L, t, k + 1);
    bool ok = fbTable_Numbers(r, lua_gettop(L), "regions", item, xy, 2);
    lua_pop(L, 1);
    if (!ok) {
      return false;
    }
    g->points[k] = fbV(xy[0], xy[1]);
    g->point_count = k + 1;
  }
  return true;
}

bool fbScenario_ReadRegions(fbTableReader *r, fbScenarioDef *d, int root)
{
  bool ok = true;
  int t = fbTable_Open(r, root, "", "regions", &ok);
  if (!t) {
    return ok;
  }
  Name names[FB_MAX_REGIONS];
  int n = 0;
  ok = sorted_names(r, t, "regions", FB_MAX_REGIONS, names, &n);
  for (int k = 0; ok && k < n; ++k) {
    lua_getfield(r->L, t, names[k]);
    ok = read_region(r, d, lua_gettop(r->L), names[k]);
    lua_pop(r->L, 1);
  }
  lua_pop(r->L, 1);
  return ok;
}
