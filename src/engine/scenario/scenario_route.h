// scenario_route.h — reading a flow field's route = { to = ..., cost = ..., ... } into its def (the engine computes the field when the world is built).
#ifndef FB_SCENARIO_ROUTE_H
#define FB_SCENARIO_ROUTE_H

#include "lua_table.h"

// Reads the route table at index t into f->route (and f's grid: cell, cols, rows over the world as
// read so far): its fields through fbRouteSchema; to as {x, y}, a list of them or a region's name;
// walls as a list of region names; cost as "distance", "energy" or a function sampled once per cell
// (a finite number >= 0). One message naming the file and the field on any mistake.
bool fbScenario_ReadRoute(fbTableReader *r, fbFlowDef *f, const fbWorldDef *world, int t, const char *where);

#endif
