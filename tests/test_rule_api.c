// test_rule_api.c — the rule and scenario API v1: the scenario's view of agents, isolation of modules.
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdbool.h>

#include <lauxlib.h>
#include <string.h>
#include <unistd.h>

#include "fb_api.h"
#include "sim_internal.h"  // white-box: reads and sets the sim's members
#include "test_util.h"

static fbSim sim;
static bool loaded;  // a failed assertion leaves the sim running: the teardown frees it
static char err[4096];

static void load(const char *path)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.seed = 11;
  if (!fbSim_Load(&sim, path, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  loaded = true;
}

static void unload(void)
{
  if (loaded) {
    fbSim_Free(&sim);
    loaded = false;
  }
}

// After every test, passed or failed: a sim left loaded keeps worker threads on the memory the
// next test's load overwrites.
static int teardown(void **state)
{
  (void)state;
  unload();
  return 0;
}

// Pushes seen[key] from the scenario's environment.
static void push_seen(const char *key)
{
  lua_State *L = sim.hooks.host.L;
  lua_getfield(L, LUA_REGISTRYINDEX, FB_LAST_ENV);
  lua_getfield(L, -1, "seen");
  lua_getfield(L, -1, key);
  lua_replace(L, -3);
  lua_pop(L, 1);
}

static double seen_number(const char *key)
{
  push_seen(key);
  double v = lua_tonumber(sim.hooks.host.L, -1);
  lua_pop(sim.hooks.host.L, 1);
  return v;
}

static const char *seen_string(const char *key)
{
  push_seen(key);
  static char s[256];
  snprintf(s, sizeof s, "%s", luaL_tolstring(sim.hooks.host.L, -1, NULL));
  lua_pop(sim.hooks.host.L, 2);
  return s;
}

// What a scenario hook sees through fb.agents, fb.find, fb.world and fb.time is the world as it is,
// and fb.set_goal moves a goal rules will see.
static void test_scenario_sees_agents_by_id(void **state)
{
  (void)state;
  load("tests/data/hooks_api.lua");
  for (int k = 0; k < 2; ++k) {
    if (!fbSim_Step(&sim)) {
      fail_msg("%s", sim.error);
    }
  }
  assert_int_equal((int)seen_number("herd"), 12);
  assert_int_equal((int)seen_number("all"), 15);
  assert_string_equal(seen_string("ids_ascending"), "true");
  assert_string_equal(seen_string("missing"), "true");
  assert_string_equal(seen_string("centre_same"), "true");
  assert_string_equal(seen_string("mean_same"), "true");
  assert_string_equal(seen_string("mean_none"), "true");
  assert_string_equal(seen_string("each_same"), "true");
  assert_string_equal(seen_string("each_reused"), "true");
  assert_int_equal((int)seen_number("each_pairs"), 15 * 3);
  assert_string_equal(seen_string("closest_two"), "true");
  assert_string_equal(seen_string("closest_one"), "true");
  assert_string_equal(seen_string("closest_none"), "true");
  assert_string_equal(seen_string("close_pairs_wrap"), "true");
  assert_string_equal(seen_string("close_pairs_none"), "true");
  assert_string_equal(seen_string("world"), "120 80 true 0.05");
  assert_int_equal((int)seen_number("step"), 2);
  assert_near(seen_number("time"), 0.1, 1e-12);
  // The mean the hook computed at step 2 is not checked against C (agents moved since); the found
  // agent's speed must agree with its position and velocity fields, which it took at that step.
  assert_true(seen_number("find_speed") > 0);
  int g = fbWorld_FindGoal(&sim.world, "lamp");
  assert_true(g >= 0);
  assert_near(sim.world.goals[g].p.x, 30, 0);
  assert_near(sim.world.goals[g].p.y, 40, 0);
  unload();
}

/*
 * Every method of the agent view (its one table, rule_api.c's view_methods, and the renamed ones)
 * is in the manual: docs/writing-rules.md names each as `a:NAME`. A method added without its
 * line in the manual fails here.
 */
// The text of a file of the source tree, into text (size bytes at most, with its '\0').
static void read_source_file(const char *name, char *text, size_t size)
{
  char path[512];
  snprintf(path, sizeof path, "%s/%s", FB_SOURCE_DIR, name);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  size_t len = fread(text, 1, size - 1, f);
  text[len] = '\0';
  fclose(f);
}

static void test_every_view_method_is_documented(void **state)
{
  (void)state;
  static char manual[1 << 17];
  read_source_file("docs/writing-rules.md", manual, sizeof manual);
  lua_State *L = luaL_newstate();
  lua_newtable(L);
  fbRuleApi_SetMethods(L);
  int methods = 0;
  lua_pushnil(L);
  while (lua_next(L, -2) != 0) {
    char name[128];
    snprintf(name, sizeof name, "`a:%s", lua_tostring(L, -2));
    if (strstr(manual, name) == NULL) {
      fail_msg("the view's method %s is not in docs/writing-rules.md", name + 1);
    }
    methods++;
    lua_pop(L, 1);
  }
  lua_close(L);
  assert_true(methods >= 10);
}

/*
 * A state's fb (L's global) is fb_api.h's table: every function in it is an entry the table offers
 * in that state and is typed in types/flockbox.lua as class.name, and every entry the table offers
 * there is in it. A function an opener sets into fb by hand, or one it leaves out, fails here.
 */
static void expect_fb_is_the_table(lua_State *L, fbFbStates where, const char *class, const char *types)
{
  assert_int_equal(lua_getglobal(L, "fb"), LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, -2) != 0) {
    const char *name = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "(not a string)";
    if (strcmp(name, "world") != 0) {
      if (!lua_isfunction(L, -1) || !fbFbApi_Offers(where, name)) {
        fail_msg("%s's fb.%s is no function fb_api.c's table offers there", class, name);
      }
      char typed[128];
      snprintf(typed, sizeof typed, "\nfunction %s.%s(", class, name);
      if (strstr(types, typed) == NULL) {
        fail_msg("fb.%s is not typed as %s.%s in types/flockbox.lua (flockbox --lua-types > types/flockbox.lua)",
                 name, class, name);
      }
    }
    lua_pop(L, 1);
  }
  for (const fbFbFunction *f = fbFbApi_Functions; f->name != NULL; ++f) {
    if (f->offered & where) {
      if (lua_getfield(L, -1, f->name) != LUA_TFUNCTION) {
        fail_msg("fb_api.c's table offers fb.%s to %s, but its fb has none", f->name, class);
      }
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
}

static void test_fb_is_one_table(void **state)
{
  (void)state;
  static char types[1 << 18];
  read_source_file("types/flockbox.lua", types, sizeof types);
  load("tests/data/hooks_closest.lua");
  expect_fb_is_the_table(sim.rules.runners[0].host.L, FB_IN_RULES, "fbRuleFb", types);
  expect_fb_is_the_table(sim.hooks.host.L, FB_IN_SCENARIOS, "fbHookFb", types);
}

// fb.closest and fb.close_pairs within walls (sweeps) are the brute force over every pair, to the
// bit, at every step, for one species and two; on a lattice where every neighbour is exactly 5 away the lowest ids win.
static void test_closest_pair_is_the_brute_force(void **state)
{
  (void)state;
  load("tests/data/hooks_closest.lua");
  for (int k = 0; k < 40; ++k) {
    if (!fbSim_Step(&sim)) {
      fail_msg("%s", sim.error);
    }
  }
  assert_int_equal((int)seen_number("checks"), 39 * 5);
  assert_int_equal((int)seen_number("pair_checks"), 39 * 14);
  assert_true(seen_number("pairs_found") > 1000);  // the brute force found pairs to agree on
  assert_int_equal((int)seen_number("posts_apart"), 0);
  assert_int_equal((int)seen_number("posts_touching"), 12);
  int agents = 150 + 40 + 9;
  assert_int_equal((long)seen_number("all_pairs"), (long)agents * (agents - 1) / 2);
  if (seen_number("mismatches") != 0) {
    fail_msg("%d mismatches, the last: %s", (int)seen_number("mismatches"), seen_string("last"));
  }
  assert_near(seen_number("post_distance"), 5.0, 0);
  int first = (int)seen_number("first_post");
  assert_int_equal((int)seen_number("post_a"), first);  // the lattice's first two posts, in id order
  assert_int_equal((int)seen_number("post_b"), first + 1);
  unload();
}

// A walk kept past its step fails with a message that says what to do, and the run says so.
static void test_stale_walk_is_an_error(void **state)
{
  (void)state;
  load("tests/data/hooks_api.lua");
  lua_State *L = sim.hooks.host.L;
  lua_getfield(L, LUA_REGISTRYINDEX, FB_LAST_ENV);
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "stale_walk_test");
  lua_pop(L, 1);
  assert_true(fbSim_Step(&sim));  // hooks see steps 1, 2, 3: the walk is made at 2, used at 3
  assert_true(fbSim_Step(&sim));
  assert_false(fbSim_Step(&sim));
  if (strstr(sim.error, "walk again each step") == NULL || strstr(sim.error, "hooks_api.lua:") == NULL) {
    fail_msg("unexpected message: %s", sim.error);
  }
  unload();
}

// ---- isolation ------------------------------------------------------------------------------------

// Two species: "boid" with a bystander rule, the rule under test and the classic three; "other"
// with the bystander and the classic three. `rule` is tamper (with p.what = attack) or inert.
static const char *isolation_scenario(const char *rule, const char *attack)
{
  static char path[256];
  snprintf(path, sizeof path, "/tmp/flockbox_isolation_%d.lua", (int)getpid());
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f,
          "local function rules(extra)\n"
          "  local list = { { 'bystander' }, { 'separation' }, { 'alignment' }, { 'cohesion' } }\n"
          "  if extra then table.insert(list, 2, extra) end\n"
          "  return list\n"
          "end\n"
          "return {\n"
          "  world = { width = 120, height = 120, dt = 0.05, bounds = 'wrap' },\n"
          "  behaviours = { '%s/tests/behaviours' },\n"
          "  goals = { home = { 60, 60 } },\n"
          "  species = {\n"
          "    { name = 'boid', count = 80, max_speed = 10, max_accel = 20, vision = { radius = 12 },\n"
          "      rules = rules({ '%s', params = %s }) },\n"
          "    { name = 'other', count = 80, max_speed = 10, max_accel = 20, vision = { radius = 12 },\n"
          "      rules = rules() },\n"
          "  },\n"
          "}\n",
          FB_SOURCE_DIR, rule, attack ? attack : "{}");
  fclose(f);
  return path;
}

// Runs the scenario for 60 steps on 2 threads; the state's hash, and the message of rule 2 of boid.
// Lua states get 64 MB and 200 ms of CPU per call, so that hostile rules are stopped quickly.
static uint64_t isolation_run(const char *path, char *message, size_t len)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.seed = 3;
  o.threads = 2;
  o.lua_memory = (size_t)64 << 20;
  o.lua_timeout_ms = 200;
  if (!fbSim_Load(&sim, path, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  loaded = true;
  char failure[2048] = "";
  for (int k = 0; k < 60 && failure[0] == '\0'; ++k) {
    if (!fbSim_Step(&sim)) {
      snprintf(failure, sizeof failure, "%s", sim.error);
    }
  }
  for (int s = 0; s < sim.world.species_count; ++s) {  // bystanders never fail
    for (int k = 0; k < sim.world.species[s].rule_count; ++k) {
      if (!(s == 0 && k == 1) && sim.world.species[s].rules[k].disabled && failure[0] == '\0') {
        snprintf(failure, sizeof failure, "species %d rule %d was switched off: %s", s, k, fbSim_RuleError(&sim, s, k));
      }
    }
  }
  if (failure[0] != '\0') {
    unload();
    fail_msg("%s", failure);
  }
  snprintf(message, len, "%s", fbSim_RuleError(&sim, 0, 1));
  uint64_t h = fbSim_Hash(&sim);
  unload();
  return h;
}

/*
 * Each attack runs in the middle of boid's rule list, on every agent, every step, on two threads.
 * The bystander rule before and the rules after it, in its species and in the other, must give
 * exactly the control run (the same list with an inert rule in its place). An attack the sandbox
 * refuses switches the tampering rule off, with a message naming its file.
 */
static void expect_isolated(const char *attack, bool refused)
{
  char params[128], message[2048], none[16];
  snprintf(params, sizeof params, "{ what = '%s' }", attack);
  uint64_t control = isolation_run(isolation_scenario("inert", NULL), none, sizeof none);
  uint64_t tampered = isolation_run(isolation_scenario("tamper", params), message, sizeof message);
  if (tampered != control) {
    fail_msg("attack '%s' changed what other rules computed", attack);
  }
  if (refused && strstr(message, "tamper.lua:") == NULL) {
    fail_msg("attack '%s': expected a message naming tamper.lua, got '%s'", attack, message);
  }
  if (!refused && message[0] != '\0') {
    fail_msg("attack '%s' should run quietly, but: %s", attack, message);
  }
}

/*
 * The corpus of hostile rules in tests/behaviours, one class each: errors, wrong results, loops
 * that try to outlast the time limit, memory exhaustion, library calls no limit reaches, floods of
 * engine calls, escapes from the sandbox. Each runs where tamper runs above, beside the bystander
 * rules of its own species and of the other species (which never sees it), and must be switched
 * off with a message naming its file while everything else computes exactly the control run.
 */
static void test_hostile_rules_leave_bystanders_alone(void **state)
{
  (void)state;
  static const struct {
    const char *module, *params;
  } corpus[] = {
      {"returns_nan", "{}"},        {"returns_string", "{}"},          {"breaks_at", "{}"},
      {"endless_loop", "{}"},       {"catches_stop", "{}"},            {"coroutine_loop", "{ how = 'wrap' }"},
      {"coroutine_loop", "{ how = 'create' }"}, {"finalizer", "{}"},  {"memory_bomb", "{}"},
      {"backtracks", "{ how = 'gsub' }"},       {"remove_flood", "{}"}, {"sandbox_probe", "{ what = 'os' }"},
      {"sandbox_probe", "{ what = 'io' }"},     {"sandbox_probe", "{ what = 'bytecode' }"},
      {"sandbox_probe", "{ what = 'require' }"},
  };
  char none[16], message[2048], file[64];
  uint64_t control = isolation_run(isolation_scenario("inert", NULL), none, sizeof none);
  for (size_t k = 0; k < sizeof corpus / sizeof corpus[0]; ++k) {
    uint64_t hostile = isolation_run(isolation_scenario(corpus[k].module, corpus[k].params), message, sizeof message);
    snprintf(file, sizeof file, "%s.lua:", corpus[k].module);
    print_message("%-15s %-26s %s\n", corpus[k].module, corpus[k].params, hostile == control ? "isolated" : "LEAKED");
    if (hostile != control) {
      fail_msg("%s %s changed what other rules computed (%s)", corpus[k].module, corpus[k].params, message);
    }
    if (strstr(message, file) == NULL) {
      fail_msg("%s %s: expected a message naming %s, got '%s'", corpus[k].module, corpus[k].params, file, message);
    }
  }
}

static void test_tampering_with_the_view(void **state)
{
  (void)state;
  expect_isolated("view", false);
  expect_isolated("view_metatable", true);
}

static void test_tampering_with_the_species(void **state)
{
  (void)state;
  expect_isolated("species", false);
}

static void test_tampering_with_params(void **state)
{
  (void)state;
  expect_isolated("params", false);
}

static void test_tampering_with_libraries(void **state)
{
  (void)state;
  expect_isolated("library", false);
}

static void test_tampering_with_fb(void **state)
{
  (void)state;
  expect_isolated("fb", false);
}

static void test_tampering_with_the_string_metatable(void **state)
{
  (void)state;
  expect_isolated("string_metatable", true);
}

static void test_tampering_with_the_globals_metatable(void **state)
{
  (void)state;
  expect_isolated("globals_metatable", false);
}

// The README's example rule works as it says: hunters catch prey, each catch counted once, and
// rest after it.
static void test_the_readme_example_hunts(void **state)
{
  (void)state;
  char path[256];
  snprintf(path, sizeof path, "/tmp/flockbox_hunt_%d.lua", (int)getpid());
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f,
          "return {\n"
          "  world = { width = 100, height = 100, dt = 0.05, bounds = 'wrap' },\n"
          "  behaviours = { '%s/tests/behaviours' },\n"
          "  species = {\n"
          "    { name = 'herd', count = 60, max_speed = 4, vision = { radius = 8 }, rules = { 'wander' } },\n"
          "    { name = 'wolf', count = 3, max_speed = 12, max_accel = 30, vision = { radius = 8 },\n"
          "      rules = { 'hunt' } },\n"
          "  },\n"
          "}\n",
          FB_SOURCE_DIR);
  fclose(f);
  load(path);
  unlink(path);
  int rested = 0;
  int resting = fbWorld_FindField(&sim.world, "resting");
  assert_true(resting >= 0);
  for (int k = 0; k < 600; ++k) {
    assert_true(fbSim_Step(&sim));
    for (int i = 0; i < sim.world.agents.count; ++i) {
      rested += sim.world.agents.species[i] == 1 && sim.world.agents.field[resting][i] > 0;
    }
  }
  int herd = 0;
  for (int i = 0; i < sim.world.agents.count; ++i) {
    herd += sim.world.agents.species[i] == 0;
  }
  print_message("60 prey, 600 steps: %d left, %llu catches\n", herd, (unsigned long long)sim.catches);
  assert_true(herd < 50);
  assert_int_equal(60 - herd, (int)sim.catches);
  assert_true(rested > 0);
  unload();
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_scenario_sees_agents_by_id, teardown),
      cmocka_unit_test_teardown(test_stale_walk_is_an_error, teardown),
      cmocka_unit_test_teardown(test_closest_pair_is_the_brute_force, teardown),
      cmocka_unit_test(test_every_view_method_is_documented),
      cmocka_unit_test_teardown(test_fb_is_one_table, teardown),
      cmocka_unit_test_teardown(test_the_readme_example_hunts, teardown),
      cmocka_unit_test_teardown(test_hostile_rules_leave_bystanders_alone, teardown),
      cmocka_unit_test_teardown(test_tampering_with_the_view, teardown),
      cmocka_unit_test_teardown(test_tampering_with_the_species, teardown),
      cmocka_unit_test_teardown(test_tampering_with_params, teardown),
      cmocka_unit_test_teardown(test_tampering_with_libraries, teardown),
      cmocka_unit_test_teardown(test_tampering_with_fb, teardown),
      cmocka_unit_test_teardown(test_tampering_with_the_string_metatable, teardown),
      cmocka_unit_test_teardown(test_tampering_with_the_globals_metatable, teardown),
  };
  return fb_run_tests(tests);
}
