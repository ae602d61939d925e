// scenario_flow.h — reading a scenario's flow_fields = { ... } (sampling its functions) and regions = { ... } into defs.
#ifndef FB_SCENARIO_FLOW_H
#define FB_SCENARIO_FLOW_H

#include "lua_table.h"

// Reads root.flow_fields (if any) into d->flows, in the order of their names: each entry's fields
// through fbFlowSchema (unknown ones refused); a png with its speed, or fn = function(x, y) called
// once per sample of the grid `cell` apart over the world as read so far (d->world), each call
// returning two finite numbers; or a route = { ... } (scenario_route.h), computed when the world is
// built. One message naming the file and the field on any mistake
// ("x.lua: flow_fields.exit.fn: at (2.5, 7.5): returned a string and nil; expected vx, vy").
bool fbScenario_ReadFlows(fbTableReader *r, fbScenarioDef *d, int root);

// Reads root.regions (if any) into d->regions, in the order of their names: each a list of {x, y}
// pairs of finite numbers. Their shape is checked when the world is built (region.h).
bool fbScenario_ReadRegions(fbTableReader *r, fbScenarioDef *d, int root);

#endif
