// test_live.c — changes to a running sim in the syntax of --set (live.c): boolean and string rule parameters, their refusals, and what keeps them.
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "live.h"
#include "rule_module.h"
#include "sim_internal.h"  // white-box: reads every thread's Lua state
#include "test_util.h"

#define PANEL_SCENARIO "tests/data/panel_test.lua"
#define CHASE_SCENARIO "scripts/leader_chase.lua"

static fbSim sims[2];
static bool loaded[2];

static fbSim *load(int slot, const char *path, int threads, const char *set)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.threads = threads;
  o.seed = 7;
  if (set != NULL) {
    o.sets[o.set_count++] = set;
  }
  char err[4096];
  if (!fbSim_Load(&sims[slot], path, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  loaded[slot] = true;
  return &sims[slot];
}

static int teardown(void **state)
{
  (void)state;
  for (int k = 0; k < 2; ++k) {
    if (loaded[k]) {
      fbSim_Free(&sims[k]);
      loaded[k] = false;
    }
  }
  return 0;
}

// Parameter "rule.name" of the scenario's regular units (leader_chase), else of its boids or hawks
// (the panel's), as Lua state `thread` holds it.
static fbParamDef value_in(const fbSim *sim, int thread, const char *rule, const char *name)
{
  int s = fbWorld_FindSpecies(&sim->world, "regular");
  s = s >= 0 ? s : fbWorld_FindSpecies(&sim->world, strcmp(rule, "seek_goal") == 0 ? "hawk" : "boid");
  int k = fbSim_FindRule(sim, s, rule);
  assert_true(k >= 0);
  fbParamDef values[64];
  int n = fbRuleModule_ListValues(&sim->rules.runners[thread], s, k, values, 64);
  for (int q = 0; q < n; ++q) {
    if (strcmp(values[q].name, name) == 0) {
      return values[q];
    }
  }
  fail_msg("no parameter %s.%s", rule, name);
  return values[0];
}

static void steps(fbSim *sim, int n)
{
  for (int k = 0; k < n; ++k) {
    assert_true(fbSim_Step(sim));
  }
}

static void expect_refused(fbSim *sim, const char *set, const char *part, const char *other)
{
  char msg[1024] = "";
  if (fbLive_Set(sim, set, msg, sizeof msg)) {
    fail_msg("%.80s was accepted", set);
  }
  if (strstr(msg, part) == NULL || (other != NULL && strstr(msg, other) == NULL)) {
    fail_msg("%.80s: '%s' lacks '%s' or '%s'", set, msg, part, other ? other : "");
  }
}

// A boolean set while the sim runs ends where a start with the same --set begins: leader.own_type
// switched off at step 0 gives the run a --set of it gives, to the bit, and another than leaving it on.
static void test_a_boolean_set_live_is_the_same_as_on_the_command_line(void **state)
{
  (void)state;
  fbSim *live = load(0, CHASE_SCENARIO, 2, NULL);
  char msg[1024];
  assert_true(fbLive_Set(live, "regular.leader.own_type=false", msg, sizeof msg));
  assert_int_equal(value_in(live, 0, "leader", "own_type").kind, FB_VALUE_BOOL);
  assert_true(value_in(live, 0, "leader", "own_type").number == 0);
  assert_true(value_in(live, 1, "leader", "own_type").number == 0);  // every thread's state
  fbSim *started = load(1, CHASE_SCENARIO, 2, "regular.leader.own_type=false");
  steps(live, 600);  // the units of leader_chase with seed 7 first part ways at about step 500
  steps(started, 600);
  assert_true(fbSim_Hash(live) == fbSim_Hash(started));
  fbSim_Free(started);
  loaded[1] = false;
  started = load(1, CHASE_SCENARIO, 2, NULL);  // own_type = true, as the scenario has it
  steps(started, 600);
  assert_true(fbSim_Hash(live) != fbSim_Hash(started));
}

// Values of the wrong kind, too long, or unknown names are refused with the rule and parameter
// named, and change nothing.
static void test_wrong_values_are_refused_with_the_parameter_named(void **state)
{
  (void)state;
  fbSim *sim = load(0, CHASE_SCENARIO, 1, NULL);
  expect_refused(sim, "regular.leader.own_type=yes", "leader.own_type", "expected true or false (got 'yes')");
  expect_refused(sim, "regular.leader.own_type=1", "leader.own_type", "expected true or false");
  expect_refused(sim, "regular.leader.own_type=", "leader.own_type", "expected true or false");
  expect_refused(sim, "regular.leader.front=abc", "leader.front", "expected a number");
  expect_refused(sim, "regular.leader.front=true", "leader.front", "expected a number");
  expect_refused(sim, "regular.leader.front=0", "front", "must be positive");  // validate, as before
  expect_refused(sim, "regular.leader.colour=red", "no parameter 'colour'", "own_type");
  char set[4096];
  memset(set, 'x', sizeof set - 1);
  set[sizeof set - 1] = '\0';
  memcpy(set, "regular.chase.target=", 21);
  expect_refused(sim, set, "chase.target", "at most 63 characters");
  assert_true(value_in(sim, 0, "leader", "own_type").number == 1);
  assert_string_equal(value_in(sim, 0, "chase", "target").text, "player");
  steps(sim, 5);
}

// A string takes any text short enough, quotes, spaces and all; one that reads as a number or a
// boolean stays a string, here and on a restart with it as --set.
static void test_a_string_takes_any_text(void **state)
{
  (void)state;
  fbSim *sim = load(0, PANEL_SCENARIO, 2, NULL);
  char msg[1024];
  const char *texts[] = {"say \"hi\" \\ 'back'", "", " spaced ", "true", "3", "x=y", "caf\xc3\xa9"};
  for (size_t k = 0; k < sizeof texts / sizeof texts[0]; ++k) {
    char set[128];
    snprintf(set, sizeof set, "hawk.seek_goal.goal=%s", texts[k]);
    if (!fbLive_Set(sim, set, msg, sizeof msg)) {
      fail_msg("%s: %s", set, msg);
    }
    for (int t = 0; t < 2; ++t) {
      fbParamDef v = value_in(sim, t, "seek_goal", "goal");
      assert_int_equal(v.kind, FB_VALUE_STRING);
      assert_string_equal(v.text, texts[k]);
    }
    steps(sim, 2);  // no such goal: the rule seeks nothing, and fails nothing
  }
  assert_int_equal(sim->rules.switched_off, 0);
  fbSim *started = load(1, PANEL_SCENARIO, 1, "hawk.seek_goal.goal=3");
  assert_int_equal(value_in(started, 0, "seek_goal", "goal").kind, FB_VALUE_STRING);
  assert_string_equal(value_in(started, 0, "seek_goal", "goal").text, "3");
}

// validate has its say on a string and a boolean as on a number; a value it accepts is kept by a
// save of the rule's file (a reload loads it from its description).
static void test_validate_judges_and_a_reload_keeps_the_value(void **state)
{
  (void)state;
  fbSim *sim = load(0, PANEL_SCENARIO, 2, NULL);
  expect_refused(sim, "boid.probe.target=nobody", "probe.target", "no species 'nobody' in this scenario");
  assert_string_equal(value_in(sim, 1, "probe", "target").text, "hawk");
  char msg[1024];
  assert_true(fbLive_Set(sim, "boid.probe.target=boid", msg, sizeof msg));
  int k = fbSim_FindRule(sim, 0, "probe");
  assert_true(fbLive_SetParam(sim, 0, k, "mark", "true", msg, sizeof msg));  // what the panel calls
  steps(sim, 2);
  int marked = fbWorld_FindField(&sim->world, "marked");
  assert_true(marked >= 0);
  assert_true(sim->world.agents.field[marked][0] == 1);
  assert_true(fbSim_ReloadRule(sim, 0, k));
  steps(sim, 2);
  for (int t = 0; t < 2; ++t) {
    assert_string_equal(value_in(sim, t, "probe", "target").text, "boid");
    assert_true(value_in(sim, t, "probe", "mark").number == 1);
  }
  assert_true(sim->world.agents.field[marked][0] == 1);
  assert_false(sim->world.species[0].rules[k].disabled);
}

// How a refused value is worded comes from how validate answered, never from its words: a refusal
// names its parameter (probe.target: ...), a validate that fails speaks for the rule (probe:
// validate failed: ...), and a refusal worded as a failure is still a refusal.
static void test_validate_refusing_and_failing_are_told_apart(void **state)
{
  (void)state;
  fbSim *sim = load(0, PANEL_SCENARIO, 1, NULL);
  const struct {
    const char *set, *message;
  } cases[] = {
      {"boid.probe.target=nobody", "probe.target: no species 'nobody' in this scenario"},
      {"boid.probe.target=fail", "probe: validate failed: "},
      {"boid.probe.target=worded_as_failure", "probe.validate failed: but this is a refusal"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    char msg[1024] = "";
    assert_false(fbLive_Set(sim, cases[k].set, msg, sizeof msg));
    if (strstr(msg, cases[k].message) == NULL) {
      fail_msg("%s: '%s' lacks '%s'", cases[k].set, msg, cases[k].message);
    }
  }
  assert_string_equal(value_in(sim, 0, "probe", "target").text, "hawk");
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_a_boolean_set_live_is_the_same_as_on_the_command_line, teardown),
      cmocka_unit_test_teardown(test_wrong_values_are_refused_with_the_parameter_named, teardown),
      cmocka_unit_test_teardown(test_a_string_takes_any_text, teardown),
      cmocka_unit_test_teardown(test_validate_judges_and_a_reload_keeps_the_value, teardown),
      cmocka_unit_test_teardown(test_validate_refusing_and_failing_are_told_apart, teardown),
  };
  return fb_run_tests(tests);
}
