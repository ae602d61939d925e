// fuzz_rule.c — libFuzzer target: arbitrary text as the body of a rule's steer function, run beside a bystander species.
#include <string.h>

#include "fuzz_util.h"

/*
 * What it feeds: the fuzzer's bytes after the first as the body of `steer` in a rule module
 *
 *   return {
 *     params = { gain = { 1, min = 0, max = 10 }, prey = { "bystander" } },
 *     fields = { mark = 0 },
 *     steer = function(a, p, s)
 *       <the bytes>
 *     end,
 *   }
 *
 * (the body may also close the function and add keys of its own: check, params, fields, ...).
 * The module is the first rule of species "fuzzed", beside a bystander species running shipped
 * rules, in a fixed scenario on one thread with a small Lua budget, stepped STEPS times. The
 * first byte picks how the scenario uses the rule: mode = byte % (FB_ACCUM_KINDS * 4), the
 * combiner mode % FB_ACCUM_KINDS (every one in accumulate.c's table: weighted, prioritised,
 * exclusive, strict, ...), the rule's kind mode / FB_ACCUM_KINDS (plain, force, drag, preempt).
 * Seeds start with a character from '0' to '?' to choose (with four combiners, byte % 16).
 *
 * Fine: whatever the rule returns or does (errors, NaN, huge numbers, wrong types, yields, loops,
 * memory bombs, tampering) ends with the rule running or switched off.
 * A bug: a crash, a hang past -timeout, a leak, undefined behaviour, an allocation beyond
 * -malloc_limit_mb, a scenario that fails to load although only the rule's text changed and the
 * message does not name the rule, an agent whose position or velocity is not finite, or a
 * bystander rule switched off (a rule's failure must stay its own).
 */

#define STEPS 5

static const char *const kinds[] = {"", ", force = true", ", drag = true", ", preempt = true"};

// The fixed scenario with the mode's accumulator and rule kind for the fuzzed species.
static void write_scenario(const char *path, int mode)
{
  char text[2048];
  snprintf(text, sizeof text,
           "return {\n"
           "  world = { width = 60, height = 60, dt = 0.05, bounds = 'wrap' },\n"
           "  behaviours = { 'rules' },\n"
           "  goals = { home = { 30, 30 } },\n"
           "  paths = { { name = 'route', points = { { 10, 10 }, { 50, 10 }, { 50, 50 } }, speed = 5 } },\n"
           "  species = {\n"
           "    { name = 'fuzzed', count = 10, spawn = { area = { 5, 5, 55, 55 }, speed = { 1, 4 } },\n"
           "      max_speed = 10, vision = { radius = 20, sees = { 'fuzzed', 'bystander' } },\n"
           "      accumulator = '%s',\n"
           "      rules = { { 'fuzzed'%s }, { 'separation' } } },\n"
           "    { name = 'bystander', count = 10, spawn = { area = { 5, 5, 55, 55 }, speed = { 1, 4 } },\n"
           "      max_speed = 10, vision = { radius = 20 },\n"
           "      rules = { { 'separation' }, { 'cohesion' }, { 'seek_goal', params = { goal = 'home' } } } },\n"
           "  },\n"
           "}\n",
           fbAccum_KindName((fbAccumKind)(mode % FB_ACCUM_KINDS)), kinds[mode / FB_ACCUM_KINDS]);
  fuzz_WriteFile(path, text, NULL, 0, "");
}

static void check_bystander(const fbSim *sim)
{
  const fbSpecies *b = &sim->world.species[1];
  for (int k = 0; k < b->rule_count; ++k) {
    if (b->rules[k].disabled) {
      fprintf(stderr, "fuzz_rule: bystander rule %d switched off: %s\n", k + 1, fbSim_RuleError(sim, 1, k));
      abort();
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size == 0) {
    return 0;
  }
  char scenario[4096];
  snprintf(scenario, sizeof scenario, "%s", fuzz_ScratchPath("scripts/rule_host.lua"));
  write_scenario(scenario, data[0] % (FB_ACCUM_KINDS * 4));
  fuzz_WriteFile(fuzz_ScratchPath("rules/fuzzed.lua"),
                 "return {\n"
                 "  params = { gain = { 1, min = 0, max = 10 }, prey = { 'bystander' } },\n"
                 "  fields = { mark = 0 },\n"
                 "  steer = function(a, p, s)\n",
                 data + 1, size - 1, "\n  end,\n}\n");

  fbRunOptions options;
  fuzz_RunOptions(&options);
  static fbSim sim;  // large: kept off the stack
  char err[4096] = "";
  if (!fbSim_Load(&sim, scenario, &options, err, sizeof err)) {
    if (strstr(err, "fuzzed") == NULL) {
      fprintf(stderr, "fuzz_rule: the host scenario was refused without naming the rule: %s\n", err);
      abort();
    }
    return 0;
  }
  for (int k = 0; k < STEPS; ++k) {
    fbSim_Step(&sim);
    fuzz_CheckAgentsFinite(&sim, "after a step");
    check_bystander(&sim);
  }
  fbSim_Free(&sim);
  return 0;
}
