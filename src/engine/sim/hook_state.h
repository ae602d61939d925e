// hook_state.h — the scenario hooks' own Lua state as bytes: the data their closures keep in upvalues, and math.random's state.
#ifndef FB_HOOK_STATE_H
#define FB_HOOK_STATE_H

#include "bytes.h"
#include "hooks.h"

/*
 * A scenario keeps its own state in locals its hooks close over (perching_birds.lua's `landings`
 * and `landed`). The walk starts at on_step, on_key and each metric, in that order, and goes
 * through every upvalue, recursively through the upvalues of Lua functions it reaches; each data
 * upvalue is named by its path ("on_step.landings", "metrics.perched.count_in.seen"). Data is nil,
 * booleans, numbers (integer or float, kept apart), strings and tables of those, nested, without
 * metatables; a C function inside a table (a local alias of `math`) is left as the script makes
 * it. Anything else (userdata, a coroutine, a Lua function inside a table, a table with a
 * metatable, a table nested more than FB_HOOK_STATE_DEPTH deep, a function more than that deep in
 * the chain of upvalues from a hook) is refused with a message naming the upvalue's path. A table
 * that contains itself (t.self = t, or further down) is refused as a cycle, naming the table and
 * the path that leads back to it; a table held in two places without a cycle is saved in each
 * (and restored as two tables). A saved state with tables deeper than that is refused as malformed.
 * `_ENV` is not walked: globals a script sets are not part of the state.
 * math.random's generator state (a C upvalue of it) is saved too: scripts draw from it.
 */
#define FB_HOOK_STATE_DEPTH 32

// Appends the hooks' state to out; false (out partly written) with the message in err if refused.
bool fbHookState_Save(fbHooks *h, fbBytes *out, char *err, size_t errlen);

// Reads what fbHookState_Save wrote and sets it into h, whose script has run (a fresh load of the
// same scenario, or the running one): upvalues are matched by path, a table upvalue is refilled
// in place (so closures sharing it still do). Saved paths the script no longer has are ignored.
// False with the message in err if the data is malformed (checked whole before anything is set).
bool fbHookState_Restore(fbHooks *h, fbReader *in, char *err, size_t errlen);

#endif
