// scenario_api.h — what a scenario's functions may call: the fb functions only its state offers (the table: fb_api.h) and the agent records they hand out.
#ifndef FB_SCENARIO_API_H
#define FB_SCENARIO_API_H

#include "hooks.h"
#include "rule_api.h"

/*
 * The scenario's side of the fb API (every entry, and the functions it shares with rules:
 * fb_api.h): agents counted, walked in id order as records (fb.agents, fb.each, fb.find), summed
 * (fb.mean, fb.centre) and paired (fb.closest, fb.close_pairs); spawns and removals queued for after the hook; rules' weights and
 * parameters, goals, paths, the player's input and the run's outcome (fb.stop) set. The functions
 * run in the scenario's state, between steps, and act on the fbHooks that is its context: what
 * they keep from call to call (the queue, fb.each's walks, the id order, fb.closest's groups, the
 * outcome) is the fbHooks' own (hooks.h).
 */

// The fields of a hook's agent record (fb.agents, fb.find): a table the engine fills records from
// and lua_types.c writes the editor's types from (ended by a NULL name). The fb functions
// themselves are entries of fb_api.h's table, with rules'.
extern const fbApiField fbScenarioApi_RecordFields[];

// Makes the global fb of h's state, its functions acting on h->on (call once, after fbHooks_Open).
void fbScenarioApi_OpenFb(fbHooks *h);

// Gives the scenario's fb the world table (width, height, wraps, dt), once the world is built.
void fbScenarioApi_SetWorld(fbHooks *h, const fbWorld *w);

#endif
