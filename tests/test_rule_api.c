// test_rule_api.c — the rule and scenario API v1: the scenario's view of agents, isolation of modules.
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <string.h>

#include "sim.h"
#include "test_util.h"

static fbSim sim;
static char err[4096];

static void load(const char *path)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.seed = 11;
  if (!fbSim_Load(&sim, path, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
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
  fbSim_Free(&sim);
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
  fbSim_Free(&sim);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scenario_sees_agents_by_id),
      cmocka_unit_test(test_stale_walk_is_an_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
