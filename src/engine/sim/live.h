// live.h — changes to a running sim in the syntax of --set: what the window's panel applies at once, and what a restart applies again.
#ifndef FB_LIVE_H
#define FB_LIVE_H

#include "sim.h"

/*
 * A change made while the sim runs must end where a restart with the same --set would start:
 * a species field is written into the species' description and the species is rebuilt from it
 * by fbSpeciesDef_Build (derived fields follow: cruise speed and acceleration from max_speed,
 * separation from the radius), then every rule of the species is asked (validate) whether it
 * accepts the new species. Rule parameters go through fbSim_SetParamValue (declared kind and
 * range, then validate): numbers, booleans (true, false) and strings alike. Anything refused leaves the sim as it was.
 *
 * What depends on a species' vision (the grid's cell size, the perception settings) is taken
 * from the species at every step, and the rules' species tables are rebuilt here, so nothing
 * cached is left behind.
 */

/*
 * The species fields that change while the sim runs, and those the window's panel offers: one
 * table (fbLiveFields in live.c) that fbLive_Set, the panel's rows and sliders, and its Lua print
 * all read. A new live field is an entry there (its checks are its schema field's, its effect is
 * fbSpeciesDef_Build's).
 */
typedef struct fbLiveField {
  const char *field;         // as --set and the schema name it: "vision.fov"
  const char *label;         // on the panel; NULL: changed by --set only (not on the panel, not printed)
  bool live;                 // applied at once; false: kept for the restart (count)
  size_t running;            // offset in fbSpecies of what the step uses (derived values included),
                             // or FB_LIVE_AS_WRITTEN: the species' description holds it
  // The slider's upper end: `top` if > 0; else the running value of `top_field` if set; else a
  // round number at least twice the value and at least top_min. A choice steps through its names.
  double top;
  const char *top_field;
  double top_min;
  // A switch this field belongs to ("orca"): the panel shows and prints the field only for a
  // species that has it on. NULL: always.
  const char *when;
} fbLiveField;

// Whether species s shows field f on the panel now: it has a label and its switch (if any) is on.
bool fbLive_Shown(const fbSim *sim, int s, const fbLiveField *f);

#define FB_LIVE_AS_WRITTEN ((size_t)-1)

extern const fbLiveField fbLiveFields[];
extern const int fbLiveFieldCount;

// Field f of species s as the running sim has it (a choice as its number).
double fbLive_Running(const fbSim *sim, int s, const fbLiveField *f);

// Applies one NAME=VALUE as --set writes it: boid.max_speed=8, boid.vision.fov=180,
// boid.accumulator=prioritised, boid.cohesion.weight=2, boid.cohesion.divisor=50,
// regular.leader.own_type=false, hawk.chase.target=boid (the text after '=' as it is). False with the
// reason in msg (nothing changed) if the value is refused, or if the field takes effect only on
// restart (world fields, count, spawn, colour, ...).
bool fbLive_Set(fbSim *sim, const char *set, char *msg, size_t len);

// Parameter `name` of rule k of species s set from text read as the kind the module declares: a
// number within its range, true or false, or any text shorter than FB_PARAM_TEXT for a string.
// The module's validate has its say; the rule's description keeps the value (a save of its file
// loads it again with it). False with the reason in msg, naming the rule and the parameter
// ("probe.target: no species 'x'"), and nothing changed, if refused.
bool fbLive_SetParam(fbSim *sim, int s, int k, const char *name, const char *text, char *msg, size_t len);

// A live species field set to value (a choice by its number, e.g. an fbAccumKind); on a derived
// field (cruise_speed, max_accel, vision.separation, max_turn) a negative value makes it derived
// again. False with the reason in msg, nothing changed, if refused.
bool fbLive_SetSpeciesField(fbSim *sim, int s, const char *field, double value, char *msg, size_t len);

// The value of a numeric, choice or boolean (0 or 1) field in species s's description, as written (-1 where derived).
double fbLive_SpeciesField(const fbSim *sim, int s, const char *field);

#endif
