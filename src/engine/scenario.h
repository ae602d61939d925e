// scenario.h — reading a scenario script's table into the world: validation with messages that name the field.
#ifndef FB_SCENARIO_H
#define FB_SCENARIO_H

#include "sim.h"

// Applies --set NAME=VALUE overrides to the scenario table at the top of L. Dotted names reach
// world fields (world.width), species fields (boid.max_speed, boid.vision.radius) and rules
// (boid.cohesion.weight, boid.cohesion.divisor for a parameter).
bool fbScenario_ApplySets(lua_State *L, const char *file, const char *const *sets, int count, char *err,
                          size_t errlen);

// Reads the table at the top of the scenario state into sim->world (world, terrain, obstacles,
// goals, species with their rules) and loads every rule into every runner. Spawns nothing.
bool fbScenario_Read(fbSim *sim, char *err, size_t errlen);

// Spawns the agents the scenario's species ask for (count + spawn area, and explicit agents lists).
bool fbScenario_Spawn(fbSim *sim, char *err, size_t errlen);

#endif
