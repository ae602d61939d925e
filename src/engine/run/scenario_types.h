// scenario_types.h — the LuaLS classes of a scenario file's table (fbScenario and its parts), written from the schema's field tables.
#ifndef FB_SCENARIO_TYPES_H
#define FB_SCENARIO_TYPES_H

#include <stdio.h>

// Writes ---@class fbScenario and the classes of its parts (world, terrain, species and their
// spawn, vision and orca groups, rule slots, paths, flow fields, routes), one ---@field per row of
// schema.c's tables: a scenario file annotated `---@type fbScenario` completes in an editor.
void fbScenarioTypes_Write(FILE *out);

#endif
