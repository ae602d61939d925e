// route_cache.c — a:route's per-state caches of nav grids and agents' paths, and the next waypoint on a path (see route_cache.h).
#include "route_cache.h"

#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"

typedef struct Grid {
  const fbWorld *world;  // the world and step its fingerprint was last checked at
  uint64_t checked_step;
  uint64_t fingerprint;
  bool built;
  fbNavGrid grid;
} Grid;

typedef struct Entry {
  uint32_t id;  // 0: empty (ids start at 1)
  int species;
  uint64_t fingerprint;
  int start_cell;
  fbVec2 goal;
  int count;
  fbVec2 *points;  // room for FB_ROUTE_MAX_WAYPOINTS, allocated on the slot's first use
} Entry;

struct fbRoutes {
  Grid grids[FB_MAX_SPECIES];
  Entry entries[FB_ROUTE_SLOTS];
};

static int routes_gc(lua_State *L)
{
  fbRoutes *r = *(fbRoutes **)lua_touserdata(L, 1);
  if (r != NULL) {
    for (int s = 0; s < FB_MAX_SPECIES; ++s) {
      fbNavGrid_Free(&r->grids[s].grid);
    }
    for (int k = 0; k < FB_ROUTE_SLOTS; ++k) {
      free(r->entries[k].points);
    }
    free(r);
  }
  return 0;
}

static const char ROUTES_KEY = 0;  // its address is the registry key

fbRoutes *fbRoutes_OfState(lua_State *L)
{
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &ROUTES_KEY) == LUA_TUSERDATA) {
    fbRoutes *r = *(fbRoutes **)lua_touserdata(L, -1);
    lua_pop(L, 1);
    return r;
  }
  lua_pop(L, 1);
  fbRoutes **box = lua_newuserdatauv(L, sizeof *box, 0);
  *box = NULL;
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, routes_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  *box = calloc(1, sizeof **box);
  FB_ASSERT(*box != NULL);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &ROUTES_KEY);
  return *box;
}

double fbRoutes_CellSize(double width, double height, double r) { return fmax(r, fmax(width, height) / 512.0); }

// ---- the grid a species' agents route on ----------------------------------------------------------

static uint64_t mix(uint64_t h, const void *bytes, size_t n)
{
  const unsigned char *p = bytes;
  for (size_t k = 0; k < n; ++k) {
    h = (h ^ p[k]) * 0x100000001b3ULL;  // FNV-1a
  }
  return h;
}

static uint64_t mix_double(uint64_t h, double x) { return mix(h, &x, sizeof x); }

// Everything the grid is made from: the world's size and edges, the body radius, every obstacle.
static uint64_t fingerprint(const fbWorld *w, double radius)
{
  uint64_t h = 0xcbf29ce484222325ULL;
  h = mix_double(mix_double(mix_double(h, w->width), w->height), radius);
  h = mix(h, &w->bounds, sizeof w->bounds);
  for (int k = 0; k < w->obstacles.count; ++k) {
    const fbObstacle *ob = &w->obstacles.items[k];
    h = mix_double(mix_double(mix_double(h, ob->centre.x), ob->centre.y), ob->radius);
    for (int v = 0; v < (ob->kind == FB_OBSTACLE_POLYGON ? ob->vertex_count : 0); ++v) {
      fbVec2 p = w->obstacles.vertices[ob->first_vertex + v];
      h = mix_double(mix_double(h, p.x), p.y);
    }
  }
  return h;
}

static Grid *grid_for(fbRoutes *r, const fbWorld *w, int s)
{
  Grid *g = &r->grids[s];
  if (g->built && g->world == w && g->checked_step == w->step) {
    return g;
  }
  double radius = w->species[s].limits.body_radius;
  uint64_t now = fingerprint(w, radius);
  if (!g->built || now != g->fingerprint) {
    fbNavGrid_Build(&g->grid, &w->obstacles, w->width, w->height, w->bounds == FB_BOUNDS_CLAMP,
                    fbRoutes_CellSize(w->width, w->height, radius), radius);
    g->fingerprint = now;
    g->built = true;
  }
  g->world = w;
  g->checked_step = w->step;
  return g;
}

// ---- an agent's path ------------------------------------------------------------------------------

static Entry *path_for(fbRoutes *r, Grid *g, const fbWorld *w, int i, fbVec2 goal)
{
  uint32_t id = w->agents.id[i];
  int s = w->agents.species[i];
  int cell = fbNavGrid_CellOf(&g->grid, fbV(w->agents.px[i], w->agents.py[i]));
  Entry *e = &r->entries[id % FB_ROUTE_SLOTS];
  if (e->id == id && e->species == s && e->fingerprint == g->fingerprint && e->start_cell == cell &&
      e->goal.x == goal.x && e->goal.y == goal.y) {
    return e;
  }
  if (e->points == NULL) {
    e->points = fbMemory_Grow(NULL, sizeof *e->points, FB_ROUTE_MAX_WAYPOINTS);
  }
  fbVec2 from = fbV(w->agents.px[i], w->agents.py[i]);  // only its cell counts (fbNavGrid_FindPath)
  *e = (Entry){id, s, g->fingerprint, cell, goal, 0, e->points};
  e->count = fbNavGrid_FindPath(&g->grid, from, goal, e->points, FB_ROUTE_MAX_WAYPOINTS);
  return e;
}

/*
 * The next waypoint from where the agent stands, p: the path's waypoints w_1 .. w_n were found from
 * its cell's centre; the agent heads for w_k, the last of them it sees in a row from the first,
 *   k = 1, then k + 1 while k < n and p sees w_{k+1},
 * so that it cuts the corner it has already turned, and never one it has not. The remaining length
 * is |w_k - p| + sum |w_{j+1} - w_j| for j >= k.
 */
bool fbRoutes_Next(fbRoutes *r, const fbWorld *w, int i, fbVec2 goal, fbRouteStep *out)
{
  Grid *g = grid_for(r, w, w->agents.species[i]);
  Entry *e = path_for(r, g, w, i, goal);
  if (e->count == 0) {
    return false;
  }
  fbVec2 p = fbV(w->agents.px[i], w->agents.py[i]);
  int k = 0;
  while (k + 1 < e->count && fbNavGrid_LineOfSight(&g->grid, p, e->points[k + 1])) {
    ++k;
  }
  double remaining = fbV_Length(fbV_Sub(e->points[k], p));
  for (int j = k; j + 1 < e->count; ++j) {
    remaining += fbV_Length(fbV_Sub(e->points[j + 1], e->points[j]));
  }
  *out = (fbRouteStep){e->points[k], remaining, e->count - k};
  return true;
}
