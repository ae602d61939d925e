// fuzz_util.h — what the libFuzzer targets share: a scratch folder laid out like the repo, input written to files, run options, invariants.
#ifndef FB_FUZZ_UTIL_H
#define FB_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "sim_internal.h"  // white-box: reads and sets the sim's members

/*
 * The engine reads scenarios, rules and terrains from files, so every input is written to a file
 * first. The files live in one scratch folder per process (under $TMPDIR, else /dev/shm), made on
 * first use and removed at exit:
 *
 *   scratch/scripts/     the fuzzed scenario, or the fixed scenario hosting a fuzzed rule
 *   scratch/rules/       the fuzzed rule module
 *   scratch/behaviours   -> FB_SOURCE_DIR/behaviours   (symbolic links, so that a scenario finds
 *   scratch/terrains     -> FB_SOURCE_DIR/terrains      the repo's rules and terrains beside it)
 *
 * A scenario looks for behaviours/ and terrains/ beside its own folder before the working
 * directory, so the links make every run find the same files wherever the fuzzer is started.
 */

// The path of `name` inside the scratch folder ("scripts/x.lua", "terrain.png"); the string is
// the caller's to keep until the next call.
const char *fuzz_ScratchPath(const char *name);

// Writes prefix, the fuzzer's bytes, then suffix into the file at path (replacing it); aborts
// if the file cannot be written, which is the machine's fault, not the input's.
void fuzz_WriteFile(const char *path, const char *prefix, const uint8_t *data, size_t size, const char *suffix);

// fbRunOptions_Default, with one thread and a small Lua budget (64 MiB, 200 ms of CPU time per
// call), so that no input can stall the fuzzer or reach its memory limit through Lua alone.
void fuzz_RunOptions(fbRunOptions *o);

// The engine's promise after any step, whatever the scripts did: every agent's position and
// velocity is finite. Aborts (a finding) naming the agent otherwise.
void fuzz_CheckAgentsFinite(const fbSim *sim, const char *when);

// A refusal must say why: aborts if err is empty.
void fuzz_CheckMessage(const char *err, const char *what);

#endif
