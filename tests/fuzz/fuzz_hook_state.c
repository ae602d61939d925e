// fuzz_hook_state.c — libFuzzer target: arbitrary bytes restored as the hooks' saved data into a scenario with hooks, then saved, restored and saved again.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "hook_state.h"

/*
 * What it feeds: the fuzzer's bytes as the hook section of a saved state (what fbHookState_Save
 * writes: math.random's state, then records of an upvalue's path and its value), to
 * fbHookState_Restore on a scenario whose hooks keep data of every kind a section can hold: a
 * nested table, a table holding a C function (kept as the script made it), one table in two places,
 * a number shared by two closures, a string, a function reached through an upvalue. The scenario is
 * loaded once; before each input its hooks are set back to their data as loaded (a restore of the
 * section saved then), so every input starts alike. The seeds (tests/fuzz/corpus/hook_state/) are
 * sections naming this scenario's paths: small ones, every tag, a table 16 deep, one at the limit
 * (32) and one past it, a shared table, malformed ones; tests/fuzz/hook_state.dict gives the paths.
 *
 * Fine: the section is refused with a message, or restored.
 * A bug: a crash, a leak, undefined behaviour, a refusal without a message; a restored section
 * that cannot be saved; or one whose save, restored and saved again, gives other bytes (what is
 * restored must be what is saved: save(restore(save(x))) == save(x)).
 */

static const char SCENARIO[] =
    "local kept = { count = 0, list = { 1, 2.5, 'three', true }, deep = { a = { b = { c = {} } } } }\n"
    "local alias = { floor = math.floor, n = 1 }\n"
    "local shared = { 1, 2 }\n"
    "local pair = { left = shared, right = shared }\n"
    "local counter, label = 0, 'x'\n"
    "local function helper() counter = counter + 1 return pair end\n"
    "return {\n"
    "  world = { width = 20, height = 20, dt = 0.05 },\n"
    "  species = { { name = 'boid', count = 1, rules = { 'separation' } } },\n"
    "  on_step = function(step) kept.count = step helper() end,\n"
    "  on_key = function(key) label = key return alias end,\n"
    "  metrics = { { 'count', function() return counter end } },\n"
    "}\n";

static fbSim sim;         // large: kept off the stack
static fbBytes as_loaded;  // the hooks' data as the scenario made it

static void die(const char *what, const char *err)
{
  fprintf(stderr, "fuzz_hook_state: %s: %s\n", what, err);
  abort();
}

static void save(fbBytes *out, const char *what)
{
  char err[4096] = "";
  out->len = 0;
  if (!fbHookState_Save(&sim.hooks, out, err, sizeof err)) {
    die(what, err);
  }
}

static void restore(const fbBytes *in, const char *what)
{
  char err[4096] = "";
  fbReader r = fbReader_Of(in->data, in->len);
  if (!fbHookState_Restore(&sim.hooks, &r, err, sizeof err)) {
    die(what, err);
  }
}

static void load_once(void)
{
  const char *path = fuzz_ScratchPath("scripts/hooks.lua");
  fuzz_WriteFile(path, SCENARIO, NULL, 0, "");
  fbRunOptions options;
  fuzz_RunOptions(&options);
  char err[4096] = "";
  if (!fbSim_Load(&sim, path, &options, err, sizeof err)) {
    die("the fixed scenario does not load", err);
  }
  save(&as_loaded, "the fixed scenario's hooks cannot be saved");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static bool loaded;
  static fbBytes first, second;
  if (!loaded) {
    load_once();
    loaded = true;
  }
  restore(&as_loaded, "the hooks' data as loaded cannot be restored");

  char err[4096] = "";
  fbReader r = fbReader_Of(data, size);
  if (!fbHookState_Restore(&sim.hooks, &r, err, sizeof err)) {
    fuzz_CheckMessage(err, "fbHookState_Restore");
    return 0;
  }
  save(&first, "a restored section cannot be saved");
  restore(&first, "a saved section cannot be restored");
  save(&second, "a section restored twice cannot be saved");
  if (first.len != second.len || memcmp(first.data, second.data, first.len) != 0) {
    fprintf(stderr, "fuzz_hook_state: saved, restored and saved again: %zu bytes, then %zu, differing\n", first.len,
            second.len);
    abort();
  }
  return 0;
}
