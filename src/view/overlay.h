// overlay.h — the parameter panel's changes saved as a scenario overlay: a Lua file that requires the scenario and changes it.
#ifndef FB_OVERLAY_H
#define FB_OVERLAY_H

#include <stddef.h>
#include <stdint.h>

#include "panel.h"

/*
 * An overlay is a scenario file of its own, saved beside the scenario it changes (so `require`
 * finds it and the paths the scenario names resolve as before):
 *
 *   local scenario = require("classic_flock")
 *   set(species("boid"), "max_speed", 12)
 *   set(rule(species("boid"), "cohesion"), "params.divisor", 50)
 *   return scenario
 *
 * Each line is one of the panel's --set values, applied to the table the scenario returns, by the
 * names --set uses; a table it changes (a rule, a species' vision) is copied first, so a rule
 * table two species share changes for one only. Running the overlay is running the scenario with
 * those --set values: the same parameters, the same hash.
 */

// Where the overlay of `scenario` goes: "DIR/STEM_panel.lua" beside it. False (with a message)
// when the scenario's name cannot be required (a name other than letters, digits and _).
bool fbOverlay_Path(const char *scenario, char *path, size_t len, char *err, size_t errlen);

// Writes the panel's changes (those in use) as an overlay of `scenario` to `path`; `step` is named
// in its header comment. False with a message when the file cannot be written.
bool fbOverlay_Write(const fbParamPanel *p, const char *scenario, uint64_t step, const char *path, char *err,
                     size_t errlen);

#endif
