// route_build.h — a route field from its description and the built world: walls and clearance rasterised, the cost of each cell, the goals.
#ifndef FB_ROUTE_BUILD_H
#define FB_ROUTE_BUILD_H

#include "defs.h"
#include "world.h"

// Makes flow field f (named fd->name) a route over the world w, whose obstacles, regions, terrain
// and species are built: solved once. false with "flow_fields.NAME.route...: message" (no file).
bool fbRoute_Build(fbFlowField *f, const fbFlowDef *fd, const fbWorld *w, char *err, size_t errlen);

// What the route is asked to keep by default: the largest body radius (half a body length) and
// the largest cruise speed of the world's species (its top speed where every cruise speed is 0).
double fbRoute_DefaultClearance(const fbWorld *w);
double fbRoute_DefaultSpeed(const fbWorld *w);

#endif
