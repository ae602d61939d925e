// test_sim.c — whole-engine behaviour: contained rule failures, the sandbox, determinism, zero allocation.
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim_internal.h"  // white-box: reads and sets the sim's members
#include "test_util.h"

static fbSim sim;
static bool loaded;  // a failed assertion leaves the sim running: the teardown frees it
static char err[4096];
static char scenario_path[256];

// Writes a one-species scenario whose rule list has `rule` between two good rules, with rules looked
// up in tests/behaviours first.
static const char *faulty_scenario(const char *rule, const char *params)
{
  snprintf(scenario_path, sizeof scenario_path, "/tmp/flockbox_test_%d.lua", (int)getpid());
  FILE *f = fopen(scenario_path, "w");
  assert_non_null(f);
  fprintf(f,
          "return {\n"
          "  world = { width = 100, height = 100, dt = 0.05 },\n"
          "  behaviours = { '%s/tests/behaviours' },\n"
          "  species = { {\n"
          "    name = 'boid', count = 60, spawn = { speed = { 1, 4 } }, max_speed = 10,\n"
          "    vision = { radius = 10 },\n"
          "    rules = { { 'separation' }, { '%s', name = 'faulty', params = %s }, { 'cohesion' } },\n"
          "  } },\n"
          "}\n",
          FB_SOURCE_DIR, rule, params);
  fclose(f);
  return scenario_path;
}

static void load(const char *path, fbRunOptions *o)
{
  fbRunOptions defaults;
  fbRunOptions_Default(&defaults);
  if (!fbSim_Load(&sim, path, o ? o : &defaults, err, sizeof err)) {
    fail_msg("%s", err);
  }
  loaded = true;
}

static void free_sim(void)
{
  if (loaded) {
    fbSim_Free(&sim);
    loaded = false;
  }
}

// After every test, passed or failed: a sim left loaded would keep its worker threads on memory
// the next test's load overwrites.
static int teardown(void **state)
{
  (void)state;
  free_sim();
  return 0;
}

static void assert_all_finite(void)
{
  const fbAgents *a = &sim.world.agents;
  for (int i = 0; i < a->count; ++i) {
    assert_true(isfinite(a->px[i]) && isfinite(a->py[i]) && isfinite(a->vx[i]) && isfinite(a->vy[i]));
  }
}

// Runs 40 steps with `rule` in the list: the run goes on, the rule is switched off with a message
// naming its file, and no agent is lost. A rule gets `timeout_ms` to return.
static void expect_contained_within(const char *rule, const char *params, const char *message, int timeout_ms)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.lua_timeout_ms = timeout_ms;
  o.lua_memory = 32u << 20;
  load(faulty_scenario(rule, params), &o);
  int before = sim.world.agents.count;
  for (int k = 0; k < 40; ++k) {
    assert_true(fbSim_Step(&sim));
  }
  const fbRuleSlot *slot = &sim.world.species[0].rules[1];
  assert_true(slot->disabled);
  if (strstr(fbSim_RuleError(&sim, 0, 1), message) == NULL) {
    fail_msg("expected '%s' in: %s", message, fbSim_RuleError(&sim, 0, 1));
  }
  assert_false(sim.world.species[0].rules[0].disabled);
  assert_false(sim.world.species[0].rules[2].disabled);
  assert_int_equal(sim.world.agents.count, before);
  assert_all_finite();
  free_sim();
  unlink(scenario_path);
}

// The failures that are not about time get a short limit all the same, so a rule that hangs
// instead of failing shows up as a wrong message, not a stuck test.
static void expect_contained(const char *rule, const char *params, const char *message)
{
  expect_contained_within(rule, params, message, 100);
}

static void test_runtime_error_is_contained(void **state)
{
  (void)state;
  expect_contained("fails_sometimes", "{}", "fails_sometimes.lua:7:");
}

static void test_nan_result_is_contained(void **state)
{
  (void)state;
  expect_contained("returns_nan", "{}", "returns_nan.lua:5: steer returned 2 values (-nan, 0)");  // the line of the return
}

static void test_wrong_types_are_contained(void **state)
{
  (void)state;
  expect_contained("returns_string", "{}", "expected two finite numbers");
}

static void test_endless_loop_is_contained(void **state)
{
  (void)state;
  expect_contained("endless_loop", "{}", "endless loop");
}

static atomic_bool hogging;

static void *hog(void *arg)
{
  (void)arg;
  volatile unsigned long spin = 0;
  while (atomic_load(&hogging)) {
    spin++;
  }
  return NULL;
}

// The time limit counts the rule's CPU time, not the wall clock: a rule that needs about an eighth
// of its limit is not stopped when 24 busy threads keep it waiting for a core for longer than the
// limit (on 2 cores it gets about 1/12 of one: some 450 ms of wall clock a step). The margin is wide
// because a shared virtual machine's thread CPU time drifts too: with a rule needing a third of
// its limit (110 of 300 ms) this test failed once in CI.
static void test_a_slow_rule_on_a_loaded_machine_is_not_an_endless_loop(void **state)
{
  (void)state;
  enum { HOGS = 24 };
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.lua_timeout_ms = 300;  // the rule's loop takes about 37 ms of CPU on these machines
  load(faulty_scenario("busy", "{ work = 10000000 }"), &o);
  pthread_t hogs[HOGS];
  atomic_store(&hogging, true);
  for (int k = 0; k < HOGS; ++k) {
    assert_int_equal(pthread_create(&hogs[k], NULL, hog, NULL), 0);
  }
  for (int k = 0; k < 3; ++k) {
    assert_true(fbSim_Step(&sim));
  }
  atomic_store(&hogging, false);
  for (int k = 0; k < HOGS; ++k) {
    pthread_join(hogs[k], NULL);
  }
  if (sim.world.species[0].rules[1].disabled) {
    fail_msg("%s", fbSim_RuleError(&sim, 0, 1));
  }
  free_sim();
}

// The time limit cannot be escaped: not by catching the stop with pcall, not inside a coroutine,
// not through a finalizer (which would run outside any limit: refused).
static void test_the_time_limit_cannot_be_escaped(void **state)
{
  (void)state;
  expect_contained("catches_stop", "{}", "catches_stop.lua:5: stopped after 100 ms of CPU time");
  expect_contained("coroutine_loop", "{ how = 'wrap' }", "stopped after 100 ms of CPU time");
  expect_contained("coroutine_loop", "{ how = 'create' }", "stopped after 100 ms of CPU time");
  expect_contained("finalizer", "{}", "finalizers (__gc) are not available to scripts");
  // A library call runs in C, out of the watchdog's reach: a pattern that could backtrack for hours
  // is refused before it starts, by every way of calling the matcher.
  const char *hows[] = {"{ how = 'find' }", "{ how = 'match' }", "{ how = 'gmatch' }", "{ how = 'gsub' }",
                        "{ how = 'method' }"};
  for (int k = 0; k < 5; ++k) {
    expect_contained("backtracks", hows[k], "could backtrack about");
  }
  expect_contained("backtracks", "{ how = 'find' }", "backtracks.lua:8: string.find: this pattern could backtrack");
}

// Memory the engine spends on a rule's behalf is budgeted too: a loop of removals is stopped at its
// 17th call, long before the queue could grow, and no agent is removed by it.
static void test_a_flood_of_removals_is_contained(void **state)
{
  (void)state;
  expect_contained("remove_flood", "{}", "remove_flood.lua:5: a:remove: more than 16 removals by one agent in one step");
}

// ---- hot reload across scenario reloads ------------------------------------------------------

static char reload_dir[128];

// Writes the rule file push.lua: steer returns (x, 0), or fails at run time when x is nil.
static void write_push_rule(const char *x)
{
  char path[256];
  snprintf(path, sizeof path, "%s/push.lua", reload_dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f, "return { steer = function() return %s, 0 end }\n", x ? x : "nil + 1");
  fclose(f);
}

// What the hot reloader does on a scenario save: a fresh sim from the files, adopted.
static void reload_scenario_files(void)
{
  static fbSim fresh;
  fbRunOptions o = sim.options;
  o.no_spawn = true;
  if (!fbSim_Load(&fresh, sim.path, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  fbSim_Adopt(&sim, &fresh);
  fbSim_Free(&fresh);
}

// The rule's output for agent 1 in the next step.
static double push_output(void)
{
  fbSim_Inspect(&sim, 1);
  assert_true(fbSim_Step(&sim));
  fbVec2 out = {0, 0};
  assert_true(fbSim_InspectOutput(&sim, 0, &out));
  return out.x;
}

// The promise of hot reload, "the last good version keeps running", holds across a scenario
// save: the scenario reload reads every rule file again, yet neither a version that already
// failed nor a broken one saved with the scenario takes the rule away.
static void test_scenario_reload_keeps_the_last_good_rule(void **state)
{
  (void)state;
  snprintf(reload_dir, sizeof reload_dir, "/tmp/flockbox_keep_%d", (int)getpid());
  mkdir(reload_dir, 0755);
  char scenario[256];
  snprintf(scenario, sizeof scenario, "%s/scene.lua", reload_dir);
  FILE *f = fopen(scenario, "w");
  assert_non_null(f);
  fprintf(f, "return { world = { width = 50, height = 50 }, behaviours = { '%s' },\n"
             "  species = { { name = 'boid', count = 5, max_accel = 10, rules = { 'push' } } } }\n", reload_dir);
  fclose(f);
  write_push_rule("1");
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.threads = 2;
  load(scenario, &o);
  assert_true(push_output() == 1);
  // A save that fails at run time falls back to the good version ...
  write_push_rule(NULL);
  assert_true(fbSim_ReloadRule(&sim, 0, 0));
  assert_true(fbSim_Step(&sim));  // the new version fails here
  assert_true(push_output() == 1);
  assert_false(sim.world.species[0].rules[0].disabled);
  // ... which a scenario reload keeps, with the message, though the file still holds the failure.
  reload_scenario_files();
  assert_true(push_output() == 1);
  assert_false(sim.world.species[0].rules[0].disabled);
  assert_non_null(strstr(fbSim_RuleError(&sim, 0, 0), "last good version"));
  // A fixed file is taken up by the next scenario reload.
  write_push_rule("2");
  reload_scenario_files();
  assert_true(push_output() == 2);
  // A broken version saved together with the scenario is tried, fails, and the good one stays.
  write_push_rule(NULL);
  reload_scenario_files();
  assert_true(fbSim_Step(&sim));  // tried, and failed
  assert_true(push_output() == 2);
  assert_false(sim.world.species[0].rules[0].disabled);
  assert_int_equal(sim.rules.switched_off, 0);
  free_sim();
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", reload_dir);
  assert_int_equal(system(cmd), 0);
}

// A scenario reload hands the fresh hooks' state to the running sim: fb.each's pool of walks (a
// ref into that state) goes with it. It used to stay behind, naming another value in the new
// state, and the next fb.each crashed (bodyguards.lua, saved while the window ran it).
static void test_scenario_reload_keeps_fb_each_working(void **state)
{
  (void)state;
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.threads = 1;
  load("scripts/bodyguards.lua", &o);
  for (int k = 0; k < 5; ++k) {
    assert_true(fbSim_Step(&sim));
  }
  reload_scenario_files();
  for (int k = 0; k < 5; ++k) {
    assert_true(fbSim_Step(&sim));
  }
  reload_scenario_files();
  assert_true(fbSim_Step(&sim));
  free_sim();
}

static void test_memory_bomb_is_contained(void **state)
{
  (void)state;
  // Filling 32 MB takes longer than 100 ms under AddressSanitizer: give it the default limit, so
  // the budget, not the clock, is what stops it.
  expect_contained_within("memory_bomb", "{}", "memory_bomb.lua:8: not enough memory", 2000);
}

// A view with more keys than Lua's guaranteed stack (17 view keys and 16 fields, filled per agent
// by one call with a value each, from the first agent on): every value arrives intact.
static void test_a_rule_may_read_every_key(void **state)
{
  (void)state;
  load(faulty_scenario("reads_everything", "{}"), NULL);
  for (int k = 0; k < 20; ++k) {
    assert_true(fbSim_Step(&sim));
  }
  const fbRuleSlot *slot = &sim.world.species[0].rules[1];
  if (slot->disabled) {
    fail_msg("%s", fbSim_RuleError(&sim, 0, 1));
  }
  free_sim();
}

static void test_sandbox_refuses_escapes(void **state)
{
  (void)state;
  unlink("/tmp/flockbox_sandbox_escaped");
  expect_contained("sandbox_probe", "{ what = 'os' }", "os");
  expect_contained("sandbox_probe", "{ what = 'io' }", "io");
  expect_contained("sandbox_probe", "{ what = 'bytecode' }", "binary");
  expect_contained("sandbox_probe", "{ what = 'require' }", "require");
  expect_contained("sandbox_probe", "{ what = 'random' }", "a:random");
  assert_int_not_equal(access("/tmp/flockbox_sandbox_escaped", F_OK), 0);
}

static uint64_t run_hash(const char *path, uint64_t seed, int threads, int steps)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.seed = seed;
  o.threads = threads;
  load(path, &o);
  for (int k = 0; k < steps; ++k) {
    assert_true(fbSim_Step(&sim));
  }
  uint64_t h = fbSim_Hash(&sim);
  free_sim();
  return h;
}

static void test_same_seed_same_run_on_any_thread_count(void **state)
{
  (void)state;
  const char *path = "scripts/classic_flock.lua";
  uint64_t one = run_hash(path, 7, 1, 200);
  assert_true(one == run_hash(path, 7, 1, 200));
  assert_true(one == run_hash(path, 7, 2, 200));
  assert_true(one == run_hash(path, 7, 3, 200));
  assert_true(one != run_hash(path, 8, 1, 200));
}

// A rule failing mid-step is skipped after the failing agent on any thread count, so even that step
// ends as it does on one thread.
static void test_failing_rule_same_on_any_thread_count(void **state)
{
  (void)state;
  const char *path = faulty_scenario("fails_at_one_agent", "{}");
  uint64_t one = run_hash(path, 5, 1, 40);
  assert_true(one == run_hash(path, 5, 2, 40));
  assert_true(one == run_hash(path, 5, 3, 40));
  unlink(path);
}

// A steady classic flock allocates no Lua memory: the view is refilled, never rebuilt, and rules
// get their neighbours through C.
static void test_zero_lua_allocations_per_steady_step(void **state)
{
  (void)state;
  load("scripts/classic_flock.lua", NULL);
  for (int k = 0; k < 50; ++k) {
    fbSim_Step(&sim);
  }
  uint64_t rules_before = fbRuleSet_Allocations(&sim.rules);
  uint64_t scenario_before = sim.hooks.host.allocations;
  for (int k = 0; k < 1000; ++k) {
    assert_true(fbSim_Step(&sim));
  }
  assert_int_equal(fbRuleSet_Allocations(&sim.rules) - rules_before, 0);
  assert_int_equal(sim.hooks.host.allocations - scenario_before, 0);
  free_sim();
}

// Every shipped scenario runs 900 steps with nothing non-finite anywhere, and once steady (steps
// 700-899: crossing's streams fill its square by step 600) allocates no Lua memory in its rules or
// its hooks.
static void test_shipped_scenarios_run_clean(void **state)
{
  (void)state;
  DIR *dir = opendir("scripts");
  assert_non_null(dir);
  int count = 0, allocating = 0;
  for (struct dirent *e; (e = readdir(dir)) != NULL;) {
    size_t n = strlen(e->d_name);
    if (n < 5 || strcmp(e->d_name + n - 4, ".lua") != 0) {
      continue;
    }
    char path[512];
    snprintf(path, sizeof path, "scripts/%s", e->d_name);
    load(path, NULL);
    uint64_t rules_before = 0, scenario_before = 0;
    for (int k = 0; k < 900; ++k) {
      if (k == 700) {
        rules_before = fbRuleSet_Allocations(&sim.rules);
        scenario_before = sim.hooks.host.allocations;
      }
      if (!fbSim_Step(&sim)) {
        fail_msg("%s: %s", path, sim.error);
      }
    }
    assert_all_finite();
    // Issue 21: no Lua allocation in a steady step, in the rules or in the scenario's hooks. One
    // exception, Lua's own: each collection frees the call frames (CallInfo, 64 bytes) a thread is
    // not using, and the next call that goes as deep makes one again. A collection ran during the
    // warm-up, so a rule path that nests calls deeper than any since (squads, leader_chase: once
    // in 200-500 steps) allocates one frame; nothing a rule or a hook does builds tables or
    // strings. Hence at most one in the rules over the 200 steps, none in the hooks.
    uint64_t rules = fbRuleSet_Allocations(&sim.rules) - rules_before;
    uint64_t scenario = sim.hooks.host.allocations - scenario_before;
    if (rules > 1 || scenario != 0) {
      print_error("%s: %llu allocations by the rules and %llu by the scenario in steps 700-899\n", path,
                  (unsigned long long)rules, (unsigned long long)scenario);
      allocating++;
    }
    for (int s = 0; s < sim.world.species_count; ++s) {
      for (int k = 0; k < sim.world.species[s].rule_count; ++k) {
        if (sim.world.species[s].rules[k].disabled) {
          fail_msg("%s: %s", path, fbSim_RuleError(&sim, s, k));
        }
      }
    }
    free_sim();
    count++;
  }
  closedir(dir);
  assert_true(count >= 3);
  assert_int_equal(allocating, 0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_runtime_error_is_contained, teardown),
      cmocka_unit_test_teardown(test_nan_result_is_contained, teardown),
      cmocka_unit_test_teardown(test_wrong_types_are_contained, teardown),
      cmocka_unit_test_teardown(test_endless_loop_is_contained, teardown),
      cmocka_unit_test_teardown(test_a_slow_rule_on_a_loaded_machine_is_not_an_endless_loop, teardown),
      cmocka_unit_test_teardown(test_the_time_limit_cannot_be_escaped, teardown),
      cmocka_unit_test_teardown(test_memory_bomb_is_contained, teardown),
      cmocka_unit_test_teardown(test_a_flood_of_removals_is_contained, teardown),
      cmocka_unit_test_teardown(test_scenario_reload_keeps_the_last_good_rule, teardown),
      cmocka_unit_test_teardown(test_scenario_reload_keeps_fb_each_working, teardown),
      cmocka_unit_test_teardown(test_a_rule_may_read_every_key, teardown),
      cmocka_unit_test_teardown(test_sandbox_refuses_escapes, teardown),
      cmocka_unit_test_teardown(test_same_seed_same_run_on_any_thread_count, teardown),
      cmocka_unit_test_teardown(test_failing_rule_same_on_any_thread_count, teardown),
      cmocka_unit_test_teardown(test_zero_lua_allocations_per_steady_step, teardown),
      cmocka_unit_test_teardown(test_shipped_scenarios_run_clean, teardown),
  };
  return fb_run_tests(tests);
}
