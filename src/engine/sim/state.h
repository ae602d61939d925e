// state.h — a run's complete state as bytes: snapshots to go back to (the window's rewind) and files to go on from (--save-state, --load-state).
#ifndef FB_STATE_H
#define FB_STATE_H

#include <limits.h>

#include "bytes.h"
#include "sim.h"

/*
 * What the scenario file describes (terrain, obstacles, species, rules, hooks' code) is made again
 * by loading it; the state is everything else a step reads, as the last step left it: the step
 * counter and next id, every agent array (positions, velocities, headings, accumulator results,
 * forces, drags, energy, ids, species, held, both buffers of each declared field), goals as moved,
 * path objects (their control points as moved, arc length, speed and a hook's speed), the player's
 * input, catches and removals, which species keep neighbour lists, rule weights, how the hooks
 * have ended or failed, and the hooks' own Lua data (hook_state.h). A state restored into a sim
 * of the same scenario steps on bit-identically to the run that saved it, on any thread count.
 *
 * The file is FB_STATE_MAGIC, a byte-order mark, FB_STATE_VERSION, then a header (flockbox
 * version, scenario path and SHA-256, seed, every --set, each rule file's path and SHA-256, the
 * step, the snapshot's SHA-256), then the snapshot. Loading checks all of it against the run it goes into and refuses,
 * naming the file and what differs, any other scenario, version, seed or --set, and any file too
 * short or malformed. Rule files that changed since are allowed (trying a fixed rule on the
 * moment it failed is the point) and reported in fbStateInfo.
 */
#define FB_STATE_MAGIC "FBSTATE\n"
#define FB_STATE_VERSION 2u  // 2: each rule's parameters follow its weight
#if LONG_MAX > 0x7fffffffL
#define FB_MAX_STATE_BYTES (4L << 30)  // 4 GiB: 4 000 000 agents with their fields fit
#else
#define FB_MAX_STATE_BYTES LONG_MAX    // a 32-bit long (the page's wasm32): 2 GiB, all its memory can hold
#endif

// Appends sim's state to out (a snapshot: no header); false with the reason if the hooks' state
// cannot be saved (hook_state.h).
bool fbState_Snapshot(fbSim *sim, fbBytes *out, char *err, size_t errlen);

// Sets sim, a run of the same scenario, to a snapshot. keep_rules: the rule weights stay as they
// are now (the window's rewind resumes with the current rules); otherwise they are the snapshot's
// too. Every field is checked before any is set, as a scenario's values are (finite numbers within
// FB_MAX_MAGNITUDE, flags 0 or 1, unique ids below the next id): false with the reason naming the
// field ("agent 12 (id 40): position is not finite") if the snapshot is malformed, insane or names
// a species the sim does not have, and the sim is as it was (the hooks' Lua data excepted, when
// only bytes left over after it are wrong).
bool fbState_Restore(fbSim *sim, const void *data, size_t len, bool keep_rules, char *err, size_t errlen);

// What a loaded file said beyond the state itself.
typedef struct fbStateInfo {
  uint64_t step;              // the step it was saved at
  bool rules_differ;          // a rule file's SHA-256 is not the one it had at save time
  char rule_changed[512];     // the first such file ("" if none)
} fbStateInfo;

// Writes sim's state, with its header, to path (atomically: a temporary file renamed over it).
// False with the message; then *bad_input (if not NULL) says whether the input is at fault (a state
// a file cannot hold, such as a hook's coroutine, or a path that is a folder, a FIFO or a device)
// rather than the writing (a full disk, a folder without write permission).
bool fbState_Save(fbSim *sim, const char *path, bool *bad_input, char *err, size_t errlen);

// Reads path, checks its header against sim (just loaded from its scenario with the run's
// options) and restores it. False with one message naming path and what differs; a FIFO, a device,
// a folder or a file over FB_MAX_STATE_BYTES is refused before anything is read.
bool fbState_Load(fbSim *sim, const char *path, fbStateInfo *info, char *err, size_t errlen);

// The same for a file's bytes already in memory; path only names it in messages.
bool fbState_LoadBytes(fbSim *sim, const void *data, size_t len, const char *path, fbStateInfo *info, char *err,
                       size_t errlen);

// Appends to out a state file of sim's header around a snapshot (fbState_Snapshot's, or one a test
// or a fuzzer changed: the header's SHA-256 is the snapshot's as given).
void fbState_Encode(const fbSim *sim, const void *snapshot, size_t len, fbBytes *out);

#endif
