// live.h — changes to a running sim in the syntax of --set: what the window's panel applies at once, and what a restart applies again.
#ifndef FB_LIVE_H
#define FB_LIVE_H

#include "sim.h"

/*
 * A change made while the sim runs must end where a restart with the same --set would start:
 * a species field is written into the species' description and the species is rebuilt from it
 * by fbSpeciesDef_Build (derived fields follow: cruise speed and acceleration from max_speed,
 * separation from the radius), then every rule of the species is asked (validate) whether it
 * accepts the new species. Rule parameters go through fbSim_SetParam (declared range, then
 * validate). Anything refused leaves the sim as it was.
 *
 * What depends on a species' vision (the grid's cell size, the perception settings) is taken
 * from the species at every step, and the rules' species tables are rebuilt here, so nothing
 * cached is left behind.
 */

// Applies one NAME=VALUE as --set writes it: boid.max_speed=8, boid.vision.fov=180,
// boid.accumulator=prioritised, boid.cohesion.weight=2, boid.cohesion.divisor=50. False with the
// reason in msg (nothing changed) if the value is refused, or if the field takes effect only on
// restart (world fields, count, spawn, colour, ...).
bool fbLive_Set(fbSim *sim, const char *set, char *msg, size_t len);


// A live species field set to value (a choice by its number, e.g. an fbAccumKind); on a derived
// field (cruise_speed, max_accel, vision.separation, max_turn) a negative value makes it derived
// again. False with the reason in msg, nothing changed, if refused.
bool fbLive_SetSpeciesField(fbSim *sim, int s, const char *field, double value, char *msg, size_t len);

// The value of a numeric or choice field in species s's description, as written (-1 where derived).
double fbLive_SpeciesField(const fbSim *sim, int s, const char *field);

#endif
