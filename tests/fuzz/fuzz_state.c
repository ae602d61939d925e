// fuzz_state.c — libFuzzer target: a saved state changed by the fuzzer, re-hashed so its checksum matches, loaded and stepped.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "state.h"

/*
 * What it feeds: at start-up a small scenario (SCENARIO below: two species, a goal, a closed path,
 * the perch rule's fields, metrics and hook upvalues) is loaded on one thread and stepped 10
 * times; its snapshot is the base. Each input's first byte picks what the rest is:
 *   0  a whole snapshot (the seed corpus holds the base as made by this build: tests/fuzz/corpus/state),
 *   1  edits to the base snapshot (below), handed to fbState_Restore: what fbState_Load does once the
 *      header and its SHA-256 match, so every change reaches the checks behind the checksum, as a
 *      buggy embedder's or a hand edit's would,
 *   2  the same edits to the snapshot wrapped in its header and re-hashed (fbState_Encode), and the
 *      edits again to that whole file, header included (the header's checks; fbState_LoadBytes),
 *   3  edits to the base snapshot restored as the window's rewind does (fbState_Restore, keep_rules).
 * Modes 0, 1 and 3 skip the header, whose SHA-256 of the scenario and every rule file would read
 * seven files an input and slow the fuzzer tenfold.
 * An edit is {u32 where (modulo the length), u8 what, u8 n, n bytes}: what % 4 is 0 overwrite n
 * bytes, 1 insert them, 2 delete n bytes, 3 write a double of the table below (NaN, infinities,
 * 1e300, ...) chosen by the first byte. A state that loads is stepped STEPS times; then the base is
 * restored (or loaded afresh if a rule or hook failed). A refused one leaves the sim as it was, so
 * the next input starts from the base.
 *
 * Fine: the state loads and steps, or is refused with a message.
 * A bug: a crash, a hang, a leak, undefined behaviour, a refusal without a message, a refusal that
 * changed the agents (fbSim_Hash), or an agent whose position or velocity is not finite after a
 * step.
 */

#define STEPS 3

static const char SCENARIO[] =
    "local landed, landings = {}, 0\n"
    "return {\n"
    "  world = { width = 200, height = 160, dt = 0.05, bounds = 'clamp' },\n"
    "  goals = { roost = { 100, 80 } },\n"
    "  paths = { { name = 'river', closed = true, points = { {40, 40}, {160, 40}, {160, 120}, {40, 120} },\n"
    "              speed = 5 } },\n"
    "  species = {\n"
    "    { name = 'bird', count = 12, spawn = { area = { 40, 40, 160, 120 }, speed = { 6, 10 } },\n"
    "      max_speed = 12, min_speed = 0, vision = { radius = 40 },\n"
    "      rules = { { 'perch', params = { ground = 0, ceiling = 30 } }, 'separation', 'cohesion',\n"
    "                { 'seek_goal', params = { goal = 'roost' } } } },\n"
    "    { name = 'fly', count = 6, max_speed = 9, rules = { { 'follow_path', params = { path = 'river' } } } },\n"
    "  },\n"
    "  on_step = function(step)\n"
    "    for a in fb.each() do\n"
    "      if a.perch and a.perch > 0 and not landed[a.id] then landings = landings + 1 end\n"
    "      landed[a.id] = a.perch and a.perch > 0\n"
    "    end\n"
    "  end,\n"
    "  metrics = { { 'landings', function() return landings end } },\n"
    "}\n";

static fbSim sim;  // large: kept off the stack
static fbBytes base;
static uint64_t base_hash;
static bool loaded;

static void load_base(void)
{
  const char *path = fuzz_ScratchPath("scripts/state.lua");
  if (!loaded) {
    fuzz_WriteFile(path, SCENARIO, (const uint8_t *)"", 0, "");
  }
  fbRunOptions options;
  fuzz_RunOptions(&options);
  options.keep_going = true;
  char err[4096];
  if (!fbSim_Load(&sim, path, &options, err, sizeof err)) {
    fprintf(stderr, "fuzz_state: the base scenario does not load: %s\n", err);
    abort();
  }
  if (!loaded) {
    for (int k = 0; k < 10; ++k) {
      fbSim_Step(&sim);
    }
    if (!fbState_Snapshot(&sim, &base, err, sizeof err)) {
      fprintf(stderr, "fuzz_state: the base snapshot is refused: %s\n", err);
      abort();
    }
  }
  if (!fbState_Restore(&sim, base.data, base.len, false, err, sizeof err)) {
    fprintf(stderr, "fuzz_state: the base snapshot does not restore: %s\n", err);
    abort();
  }
  base_hash = fbSim_Hash(&sim);
  loaded = true;
}

// Writes the base snapshot as a seed when FUZZ_STATE_SEED names a file (how corpus/state was made).
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc, (void)argv;
  load_base();
  const char *seed = getenv("FUZZ_STATE_SEED");
  if (seed != NULL) {
    FILE *f = fopen(seed, "wb");
    if (f == NULL || fputc(0, f) == EOF || fwrite(base.data, 1, base.len, f) != base.len || fclose(f) != 0) {
      fprintf(stderr, "fuzz_state: cannot write %s\n", seed);
      abort();
    }
  }
  return 0;
}

static const double SPECIAL[] = {NAN, INFINITY, -INFINITY, 1e300, -1e300, 1e9, 1.0000001e9, -0.0, 0, 1,
                                 -1, 4.9e-324, 2.0, 0.5, 4294967296.0, 1e15};

// Applies the input's edits to text (a copy of the base, grown as needed).
static void apply_edits(fbBytes *text, const uint8_t *data, size_t size)
{
  for (size_t at = 0; at + 6 <= size && text->len > 0;) {
    uint32_t where;
    memcpy(&where, data + at, 4);
    uint8_t what = data[at + 4], n = data[at + 5];
    at += 6;
    size_t take = n <= size - at ? n : size - at;
    size_t w = where % text->len;
    switch (what % 4) {
    case 0:  // overwrite
      take = take < text->len - w ? take : text->len - w;
      memcpy(text->data + w, data + at, take);
      break;
    case 1: {  // insert
      fbBytes_Put(text, data + at, take);  // grows; then moved into place
      memmove(text->data + w + take, text->data + w, text->len - take - w);
      memcpy(text->data + w, data + at, take);
      break;
    }
    case 2: {  // delete n bytes
      size_t cut = n < text->len - w ? n : text->len - w;
      memmove(text->data + w, text->data + w + cut, text->len - w - cut);
      text->len -= cut;
      take = 0;
      break;
    }
    default: {  // a double that no step makes
      double v = SPECIAL[(take > 0 ? data[at] : n) % (sizeof SPECIAL / sizeof SPECIAL[0])];
      if (text->len - w >= sizeof v) {
        memcpy(text->data + w, &v, sizeof v);
      }
      break;
    }
    }
    at += take;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size == 0) {
    return 0;
  }
  int mode = data[0] % 4;
  data++, size--;
  fbBytes snapshot = {0}, file = {0};
  if (mode == 0) {
    fbBytes_Put(&snapshot, data, size);
  } else {
    fbBytes_Put(&snapshot, base.data, base.len);
    apply_edits(&snapshot, data, size);
  }
  char err[4096] = "";
  bool ok;
  if (mode != 2) {
    ok = fbState_Restore(&sim, snapshot.data, snapshot.len, mode == 3, err, sizeof err);
  } else {
    fbState_Encode(&sim, snapshot.data, snapshot.len, &file);
    apply_edits(&file, data, size);
    fbStateInfo info;
    ok = fbState_LoadBytes(&sim, file.data, file.len, "fuzzed.state", &info, err, sizeof err);
  }
  fbBytes_Free(&snapshot);
  fbBytes_Free(&file);
  if (!ok) {
    fuzz_CheckMessage(err, "fbState_Load");
    if (fbSim_Hash(&sim) != base_hash) {
      fprintf(stderr, "fuzz_state: a refused state changed the sim (%s)\n", err);
      abort();
    }
    return 0;
  }
  for (int k = 0; k < STEPS; ++k) {
    fbSim_Step(&sim);
    fuzz_CheckAgentsFinite(&sim, "after a step from a loaded state");
  }
  // Back to the base: restored (what a state holds is all a step changes) unless a rule or a hook
  // failed, whose switched-off state no snapshot holds; then loaded afresh (a tenth of the speed).
  if (sim.rules.switched_off > 0 || sim.hooks.failures > 0 || sim.error[0] != '\0' ||
      !fbState_Restore(&sim, base.data, base.len, false, err, sizeof err)) {
    fbSim_Free(&sim);
    load_base();
  }
  base_hash = fbSim_Hash(&sim);
  return 0;
}
