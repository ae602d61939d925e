// route_cache.h — a:route's paths: in each rule state (so per thread) a nav grid per species' body and each agent's last path, a pure function of its cell and goal.
#ifndef FB_ROUTE_CACHE_H
#define FB_ROUTE_CACHE_H

#include <lua.h>

#include "nav_grid.h"
#include "world.h"

/*
 * a:route(x, y) must give the same answer on any thread count, so its answer is a pure function of
 * the world's obstacles, the agent's species (its body radius), the grid cell it stands in, its
 * position and the goal: the path found from that cell (fbNavGrid_FindPath) and, on it, the next
 * waypoint the agent can see. The caches below only save recomputing: a hit and a miss give the
 * same bits, so which thread ran an agent last, or what a cache held, never shows.
 *
 * Bounded: one grid per species per rule state (nx ny bytes plus A*'s scratch, ~13 bytes a cell),
 * and FB_ROUTE_SLOTS paths of at most FB_ROUTE_MAX_WAYPOINTS waypoints, slot = agent id mod
 * FB_ROUTE_SLOTS (two agents on one slot evict each other: slower, never wrong). Invalidated: a
 * path when the agent leaves the cell it was found from, or asks for another goal; a grid when the
 * world's fingerprint (size, edges, body radius, every obstacle) changes, checked once a step.
 * Both live in a userdata in the rule state's registry and go with the state (its __gc frees them).
 */
#define FB_ROUTE_SLOTS 1024
#define FB_ROUTE_MAX_WAYPOINTS 256

typedef struct fbRouteStep {
  fbVec2 next;       // the next waypoint (the goal itself when it is in sight)
  double remaining;  // the length of the path left: to next, then waypoint to waypoint
  int waypoints;     // waypoints left, next included
} fbRouteStep;

typedef struct fbRoutes fbRoutes;

// The caches of rule state L, made on first use.
fbRoutes *fbRoutes_OfState(lua_State *L);

// The grid side a:route uses for a body of radius r in a width x height world: the radius, or
// 1/512 of the longer side when that is coarser (a grid of at most 512 x 512 cells).
double fbRoutes_CellSize(double width, double height, double r);

// Agent i's way to goal: false when the goal cannot be reached from where it stands.
bool fbRoutes_Next(fbRoutes *r, const fbWorld *w, int i, fbVec2 goal, fbRouteStep *out);

#endif
