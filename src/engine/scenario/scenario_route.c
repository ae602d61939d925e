// scenario_route.c — a flow field's route = { ... }: goals, walls, clearance, speed and the cost (a name, or a Lua function sampled now).
#include "scenario_route.h"

#include <string.h>

#include "flow_field.h"

// to = {x, y}, to = { {x, y}, ... } or to = "REGION".
static bool read_goals(fbTableReader *r, fbRouteDef *route, int t, const char *where)
{
  lua_State *L = r->L;
  int type = lua_getfield(L, t, "to");
  int at = lua_gettop(L);
  bool ok = true;
  if (type == LUA_TSTRING && lua_rawlen(L, at) > 0 && lua_rawlen(L, at) < FB_NAME_LEN) {
    snprintf(route->to_region, sizeof route->to_region, "%s", lua_tostring(L, at));
  } else if (type != LUA_TTABLE) {
    ok = fbTable_Fail(r, where, "to", "expected the goal {x, y}, several { {x, y}, ... }, or a region's name");
  } else if (lua_rawgeti(L, at, 1) == LUA_TNUMBER) {
    double xy[2];
    ok = fbTable_Numbers(r, at, where, "to", xy, 2);
    route->to[0] = fbV(xy[0], xy[1]);
    route->to_count = 1;
  } else {
    int n = (int)lua_rawlen(L, at);
    ok = (n >= 1 && n <= FB_ROUTE_MAX_GOALS) ||
         fbTable_Fail(r, where, "to", "1 to %d goals { {x, y}, ... }, got %d", FB_ROUTE_MAX_GOALS, n);
    for (int k = 0; ok && k < n; ++k) {
      char item[16];
      snprintf(item, sizeof item, "to[%d]", k + 1);
      double xy[2];
      lua_rawgeti(L, at, k + 1);
      ok = fbTable_Numbers(r, lua_gettop(L), where, item, xy, 2);
      lua_pop(L, 1);
      route->to[k] = fbV(xy[0], xy[1]);
      route->to_count = k + 1;
    }
  }
  lua_settop(L, at - 1);
  return ok;
}

// walls = { "REGION", ... }
static bool read_walls(fbTableReader *r, fbRouteDef *route, int t, const char *where)
{
  lua_State *L = r->L;
  bool ok = true;
  int at = fbTable_Open(r, t, where, "walls", &ok);
  if (!at) {
    return ok;
  }
  int n = (int)lua_rawlen(L, at);
  ok = n <= FB_ROUTE_MAX_WALLS || fbTable_Fail(r, where, "walls", "at most %d regions", FB_ROUTE_MAX_WALLS);
  for (int k = 0; ok && k < n; ++k) {
    size_t len = 0;
    const char *name = lua_rawgeti(L, at, k + 1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
    ok = (name != NULL && len > 0 && len < FB_NAME_LEN) ||
         fbTable_Fail(r, where, "walls", "item %d: expected a region's name", k + 1);
    if (ok) {
      snprintf(route->walls[k], FB_NAME_LEN, "%s", name);
      route->wall_count = k + 1;
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return ok;
}

// cost = function(x, y) return c end, called at every cell centre: finite and >= 0.
static bool sample_cost(fbTableReader *r, fbFlowDef *f, int fn, const char *where)
{
  lua_State *L = r->L;
  size_t n = (size_t)f->cols * (size_t)f->rows;
  f->route.cost_samples = malloc(sizeof *f->route.cost_samples * n);
  FB_ASSERT(f->route.cost_samples != NULL);
  for (size_t k = 0; k < n; ++k) {
    fbVec2 at = fbFlowGrid_Centre((int)(k % (size_t)f->cols), (int)(k / (size_t)f->cols), f->cols, f->rows, f->width,
                                  f->height);
    lua_pushvalue(L, fn);
    lua_pushnumber(L, at.x);
    lua_pushnumber(L, at.y);
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
      bool ok = fbTable_Fail(r, where, "cost", "at (%g, %g): %s", at.x, at.y,
                             lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "an error that is not a string");
      lua_pop(L, 1);
      return ok;
    }
    int type = lua_type(L, -1);
    double c = type == LUA_TNUMBER ? lua_tonumber(L, -1) : NAN;
    lua_pop(L, 1);
    if (!(c >= 0 && c <= FB_MAX_MAGNITUDE)) {
      return fbTable_Fail(r, where, "cost", "at (%g, %g): returned %s%s; expected a cost per unit length, a finite number >= 0",
                          at.x, at.y, type == LUA_TNUMBER ? "" : "a ", type == LUA_TNUMBER ? "a number out of range" : lua_typename(L, type));
    }
    f->route.cost_samples[k] = c;
  }
  return true;
}

static bool read_cost(fbTableReader *r, fbFlowDef *f, int t, const char *where)
{
  lua_State *L = r->L;
  int type = lua_getfield(L, t, "cost");
  const char *name = type == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
  bool ok = true;
  if (type == LUA_TNIL || (name != NULL && strcmp(name, "distance") == 0)) {
    f->route.cost = FB_ROUTE_DISTANCE;
  } else if (name != NULL && strcmp(name, "energy") == 0) {
    f->route.cost = FB_ROUTE_ENERGY;
  } else if (type == LUA_TFUNCTION) {
    f->route.cost = FB_ROUTE_FUNCTION;
    ok = sample_cost(r, f, lua_gettop(L), where);
  } else {
    ok = fbTable_Fail(r, where, "cost", "expected \"distance\", \"energy\" or function(x, y) return cost end, got %s%s",
                      name ? name : "a ", name ? "" : lua_typename(L, type));
  }
  lua_pop(L, 1);
  return ok;
}

bool fbScenario_ReadRoute(fbTableReader *r, fbFlowDef *f, const fbWorldDef *world, int t, const char *where)
{
  char here[FB_NAME_LEN + 32];
  snprintf(here, sizeof here, "%s.route", where);
  f->route = (fbRouteDef){.on = true, .clearance = -1, .speed = -1, .cost = FB_ROUTE_DISTANCE};
  if (!fbTable_ReadDef(r, t, here, &fbRouteSchema, f)) {
    return false;
  }
  if (f->cell <= 0) {
    f->cell = fmin(world->width, world->height) / 64;
  }
  double cells = fbFlowGrid_Size(world->width, world->height, f->cell, &f->cols, &f->rows);
  if (cells > FB_FLOW_MAX_CELLS) {
    return fbTable_Fail(r, here, "cell", "%g units over a %gx%g world makes %.0f cells; at most %d (a larger cell)",
                        f->cell, world->width, world->height, cells, FB_FLOW_MAX_CELLS);
  }
  f->width = world->width;
  f->height = world->height;
  return read_goals(r, &f->route, t, here) && read_walls(r, &f->route, t, here) && read_cost(r, f, t, here);
}
