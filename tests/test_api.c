// test_api.c — the public API alone (flockbox.h): a world from Defs, agents by copy, messages through the log function, the data folder.
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <flockbox/flockbox.h>  // and nothing of the engine's own headers: this is what an embedder sees

static fbScenarioDef *flock_def(int count)
{
  fbScenarioDef *d = fbScenarioDef_New();
  fbScenarioDef_World(d)->width = 60;
  fbSpeciesDef *boid = fbScenarioDef_AddSpecies(d, "boid");
  boid->count = count;
  fbSpeciesDef_AddRule(boid, "separation");
  fbSpeciesDef_AddRule(boid, "alignment");
  return d;
}

static fbSim *new_sim(fbScenarioDef *d, int threads)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.seed = 3;
  o.threads = threads;
  char err[1024];
  fbSim *sim = fbSim_New(d, &o, err, sizeof err);
  if (sim == NULL) {
    fail_msg("%s", err);
  }
  return sim;
}

static void test_world_from_defs(void **state)
{
  (void)state;
  fbScenarioDef *d = flock_def(30);
  fbSim *sim = new_sim(d, 1), *other = new_sim(d, 2);
  fbScenarioDef_Delete(d);
  for (int k = 0; k < 20; ++k) {
    assert_true(fbSim_Step(sim));
    assert_true(fbSim_Step(other));
  }
  assert_true(fbSim_Time(sim) > 0.99 && fbSim_Time(sim) < 1.01);  // 20 steps of 0.05 s
  assert_int_equal(fbSim_SpeciesCount(sim), 1);
  assert_string_equal(fbSim_SpeciesName(sim, 0), "boid");
  assert_int_equal(fbSim_AgentCount(sim), 30);
  fbAgentState agents[40];
  assert_int_equal(fbSim_GetAgents(sim, agents, 40), 30);
  assert_int_equal(fbSim_GetAgents(sim, agents, 7), 7);
  fbSim_GetAgents(sim, agents, 40);
  uint64_t seen = 0;  // ids 1..30, each once
  for (int i = 0; i < 30; ++i) {
    assert_true(agents[i].id >= 1 && agents[i].id <= 30);
    assert_false(seen & (1ull << agents[i].id));
    seen |= 1ull << agents[i].id;
    assert_int_equal(agents[i].species, 0);
    assert_true(agents[i].position.x >= 0 && agents[i].position.x <= fbSim_WorldSize(sim).x);
    assert_true(agents[i].position.y >= 0 && agents[i].position.y <= fbSim_WorldSize(sim).y);
  }
  assert_true(fbSim_Hash(sim) == fbSim_Hash(other));  // the thread count changes nothing
  assert_true(fbSim_FindRule(sim, 0, "alignment") == 1);
  fbSim_Delete(sim);
  fbSim_Delete(other);
}

static void test_bad_def_is_refused(void **state)
{
  (void)state;
  fbScenarioDef *d = flock_def(5);
  fbScenarioDef_FindSpecies(d, "boid")->vision.fov = 400;
  char err[1024];
  assert_null(fbSim_New(d, NULL, err, sizeof err));
  assert_non_null(strstr(err, "vision.fov"));
  fbScenarioDef_Delete(d);
}

typedef struct Heard {
  int count;
  fbLogLevel level;
  char text[2048];
} Heard;

static void hear(fbLogLevel level, const char *message, void *context)
{
  Heard *h = context;
  h->count++;
  h->level = level;
  snprintf(h->text, sizeof h->text, "%s", message);
}

// A flock with one more rule, `name`, whose module (source) is written into dir.
static fbSim *flock_with_rule(const char *dir, const char *name, const char *source, int count)
{
  char path[160];
  snprintf(path, sizeof path, "%s/%s.lua", dir, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(source, f);
  fclose(f);
  fbScenarioDef *d = flock_def(count);
  assert_true(fbScenarioDef_AddRuleFolder(d, dir));
  fbSpeciesDef_AddRule(fbScenarioDef_FindSpecies(d, "boid"), name);
  fbSim *sim = new_sim(d, 1);
  fbScenarioDef_Delete(d);
  return sim;
}

// Makes `steps` steps with the log function set to hear and the stream fd (1 or 2) sent to the
// file out; returns whether they all went well and leaves in *written what reached the stream.
static bool step_listening(fbSim *sim, int steps, Heard *heard, int fd, const char *out, long *written)
{
  fbSetLogFunction(hear, heard);
  fflush(NULL);
  int saved = dup(fd), file = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  dup2(file, fd);
  bool ok = true;
  for (int k = 0; k < steps; ++k) {
    ok = fbSim_Step(sim) && ok;
  }
  fflush(NULL);
  dup2(saved, fd);
  close(file);
  close(saved);
  fbSetLogFunction(NULL, NULL);
  FILE *f = fopen(out, "r");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  *written = ftell(f);
  fclose(f);
  remove(out);
  return ok;
}

// A rule that fails is switched off with a message: it reaches the log function, and stderr
// stays empty.
static void test_messages_go_to_the_log_function(void **state)
{
  (void)state;
  char dir[] = "/tmp/fb_test_api_XXXXXX", out[128], path[128];
  assert_non_null(mkdtemp(dir));
  fbSim *sim = flock_with_rule(dir, "boom", "return { steer = function(a, p) error('boom') end }\n", 5);
  snprintf(out, sizeof out, "%s/stderr", dir);
  Heard heard = {0};
  long written = -1;
  assert_true(step_listening(sim, 2, &heard, 2, out, &written));
  assert_int_equal(heard.count, 1);
  assert_int_equal(heard.level, FB_LOG_WARNING);
  assert_non_null(strstr(heard.text, "rule 'boom' of species 'boid' switched off at step 0"));
  assert_non_null(strstr(heard.text, "boom.lua"));
  assert_true(heard.text[strlen(heard.text) - 1] != '\n');  // no final newline: the program frames it
  assert_int_equal(written, 0);
  fbSim_Delete(sim);
  snprintf(path, sizeof path, "%s/boom.lua", dir);
  remove(path);
  rmdir(dir);
}

// A rule's print(...) is one message through the log function, with the file and line, values
// as tostring gives them (metamethods respected), cut at 1 000 bytes; nothing on stdout.
static void test_print_goes_to_the_log_function(void **state)
{
  (void)state;
  char dir[] = "/tmp/fb_test_print_XXXXXX", out[128], path[128];
  assert_non_null(mkdtemp(dir));
  fbSim *sim = flock_with_rule(dir, "talk",
                               "local said = false\n"
                               "return { steer = function(a, p)\n"
                               "  if not said then said = true\n"
                               "    print('hello', 7, setmetatable({}, { __tostring = function() return 'T' end }), nil, ('x'):rep(5000))\n"
                               "  end\n"
                               "  return 0, 0 end }\n",
                               3);
  snprintf(out, sizeof out, "%s/stdout", dir);
  Heard heard = {0};
  long written = -1;
  assert_true(step_listening(sim, 1, &heard, 1, out, &written));
  assert_int_equal(heard.count, 1);
  assert_int_equal(heard.level, FB_LOG_INFO);
  assert_non_null(strstr(heard.text, "talk.lua:4: hello\t7\tT\tnil\txxx"));
  assert_true(strlen(heard.text) < 1200);
  assert_non_null(strstr(heard.text, " ..."));
  assert_int_equal(written, 0);
  fbSim_Delete(sim);
  snprintf(path, sizeof path, "%s/talk.lua", dir);
  remove(path);
  rmdir(dir);
}

// fbSim_New on d: NULL, with a message holding `expected`; d is deleted.
static void assert_refused(fbScenarioDef *d, const char *expected)
{
  char err[1024] = "";
  fbSim *sim = fbSim_New(d, NULL, err, sizeof err);
  fbScenarioDef_Delete(d);
  if (sim != NULL) {
    fbSim_Delete(sim);
    fail_msg("accepted; expected a refusal naming: %s", expected);
  }
  if (strstr(err, expected) == NULL) {
    fail_msg("refused with \"%s\"; expected it to hold \"%s\"", err, expected);
  }
}

static fbSpeciesDef *boid_of(fbScenarioDef *d) { return fbScenarioDef_FindSpecies(d, "boid"); }

// NaN means "not given" only where it is the default (a random heading, the whole world as the
// spawn area); anywhere else a NaN or an infinity is refused with the field's name, where it used to
// reach an assertion in the step.
static void test_nan_and_infinity_are_refused_by_name(void **state)
{
  (void)state;
  fbScenarioDef *d = flock_def(5);
  fbScenarioDef_World(d)->width = NAN;
  assert_refused(d, "(world built in C): world.width: must be between 0.001 and 1e+07 (got nan)");
  d = flock_def(5);
  fbScenarioDef_World(d)->dt = NAN;
  assert_refused(d, "(world built in C): world.dt: must be between");
  d = flock_def(5);
  fbScenarioDef_World(d)->height = INFINITY;
  assert_refused(d, "world.height: must be between 0.001 and 1e+07 (got inf)");
  d = flock_def(5);
  boid_of(d)->max_speed = NAN;
  assert_refused(d, "(world built in C): species[1].max_speed: must be between");
  d = flock_def(5);
  boid_of(d)->cruise_speed = NAN;  // derived when negative, but NaN is not negative
  assert_refused(d, "species[1].cruise_speed: must be between");
  d = flock_def(5);
  boid_of(d)->max_turn = -INFINITY;
  assert_refused(d, "species[1].max_turn: must be between");
  d = flock_def(5);
  boid_of(d)->spawn.area[2] = NAN;  // only the first item's NaN means "the whole world"
  boid_of(d)->spawn.area[0] = 0;
  assert_refused(d, "species[1].spawn.area: item 3: expected a number between");
  d = flock_def(5);
  boid_of(d)->spawn.speed[0] = NAN;
  assert_refused(d, "species[1].spawn.speed: must be between 0 and 1e+07 (got nan)");
  d = flock_def(5);
  fbSpeciesDef_FindRule(boid_of(d), "alignment")->weight = NAN;
  assert_refused(d, "species[1].rules[2].weight: must be between");

  d = flock_def(5);  // the defaults NaN stands for: a random heading, anywhere in the world
  assert_true(isnan(boid_of(d)->spawn.heading) && isnan(boid_of(d)->spawn.area[0]));
  fbSim *sim = new_sim(d, 1);
  fbScenarioDef_Delete(d);
  assert_true(fbSim_Step(sim));
  fbSim_Delete(sim);
}

// An enum or a count a C program wrote beyond its values is refused with the field's name.
static void test_enums_and_counts_out_of_range_are_refused(void **state)
{
  (void)state;
  fbScenarioDef *d = flock_def(5);
  boid_of(d)->vision.sampling = (fbSampling)77;
  assert_refused(d, "(world built in C): species[1].vision.sampling: expected \"exact\" or \"gamlen\" (got the value 77)");
  d = flock_def(5);
  boid_of(d)->accumulator = (fbAccumKind)-1;
  assert_refused(d, "species[1].accumulator: expected");
  d = flock_def(5);
  boid_of(d)->drag = (fbDragForm)9;
  assert_refused(d, "species[1].drag: expected \"exact\" or \"gompert\"");
  d = flock_def(5);
  fbScenarioDef_World(d)->bounds = (fbBounds)2;
  assert_refused(d, "world.bounds: expected \"wrap\" or \"clamp\"");
  d = flock_def(5);
  fbScenarioDef_World(d)->update = (fbUpdate)5;
  assert_refused(d, "world.update: expected");
  d = flock_def(5);
  fbRuleDef_SetNumber(fbSpeciesDef_FindRule(boid_of(d), "separation"), "divisor", 2);
  fbSpeciesDef_FindRule(boid_of(d), "separation")->params[0].kind = (fbValueKind)77;
  assert_refused(d, "species[1].rules[1].params[1].kind: expected FB_VALUE_NUMBER");
  d = flock_def(5);
  boid_of(d)->count = -3;
  assert_refused(d, "species[1].count: must be between 0 and");
  d = flock_def(5);
  boid_of(d)->rule_count = 99;
  assert_refused(d, "species[1].rules: 99 rules, expected 0 to 24");
  d = flock_def(5);
  boid_of(d)->vision.sees_count = -1;
  assert_refused(d, "species[1].vision.sees: -1 names, expected 0 to 16");
  d = flock_def(5);
  fbSpeciesDef_FindRule(boid_of(d), "alignment")->param_count = 1000;
  assert_refused(d, "species[1].rules[2].params: 1000 parameters, expected 0 to 16");
  d = flock_def(5);
  memset(boid_of(d)->name, 'x', sizeof boid_of(d)->name);  // no zero byte
  assert_refused(d, "species[1].name: is not ended within its 48 bytes");
}

// A rule module is a plain name, in a C def as in a scenario file: never a path out of the folders.
static void test_module_names_are_checked(void **state)
{
  (void)state;
  fbScenarioDef *d = flock_def(5);
  fbSpeciesDef_AddRule(boid_of(d), "../scripts/classic_flock");
  assert_refused(d, "(world built in C): species[1].rules[3].rule: '../scripts/classic_flock' is not a module name "
                    "(letters, digits and _ only)");
  d = flock_def(5);
  fbSpeciesDef_AddRule(boid_of(d), "");
  assert_refused(d, "species[1].rules[3].rule: name the rule's module");
}

// An agent placed by hand belongs to a species already added; its numbers are checked by
// fbSim_New, which names it.
static void test_placed_agents_are_checked(void **state)
{
  (void)state;
  fbScenarioDef *d = flock_def(5);
  assert_false(fbScenarioDef_PlaceAgent(d, 1, (fbVec2){1, 1}, (fbVec2){0, 0}));  // only species 0 exists
  assert_false(fbScenarioDef_PlaceAgent(d, -1, (fbVec2){1, 1}, (fbVec2){0, 0}));
  assert_true(fbScenarioDef_PlaceAgent(d, 0, (fbVec2){10, 10}, (fbVec2){1, 0}));
  fbSim *sim = new_sim(d, 1);
  fbScenarioDef_Delete(d);
  assert_int_equal(fbSim_AgentCount(sim), 6);  // the five spawned and the one placed: none vanished
  fbSim_Delete(sim);

  d = flock_def(5);
  assert_true(fbScenarioDef_PlaceAgent(d, 0, (fbVec2){10, 10}, (fbVec2){1, 0}));
  assert_true(fbScenarioDef_PlaceAgent(d, 0, (fbVec2){NAN, 5}, (fbVec2){0, 0}));
  assert_refused(d, "(world built in C): species[1].agents[2]: position (nan, 5): expected finite numbers");
  d = flock_def(5);
  assert_true(fbScenarioDef_PlaceAgent(d, 0, (fbVec2){5, 5}, (fbVec2){0, INFINITY}));
  assert_refused(d, "species[1].agents[1]: velocity (0, inf): expected finite numbers");
  d = flock_def(5);
  assert_true(fbScenarioDef_PlaceAgent(d, 0, (fbVec2){1e300, 5}, (fbVec2){0, 0}));
  assert_refused(d, "species[1].agents[1]: position (1e+300, 5): expected finite numbers within -1e+07 .. 1e+07");
}

// Every index the API takes is checked: false with a message, -1 or 0, and nothing written.
static void test_bad_indices_are_refused(void **state)
{
  (void)state;
  fbScenarioDef *d = flock_def(5);
  fbSim *sim = new_sim(d, 1), *control = new_sim(d, 1);
  fbScenarioDef_Delete(d);
  Heard heard = {0};
  fbSetLogFunction(hear, &heard);
  assert_false(fbSim_SetWeight(sim, 99, 0, 1));
  assert_int_equal(heard.level, FB_LOG_ERROR);
  assert_non_null(strstr(heard.text, "fbSim_SetWeight: no species 99 (the sim has 1, from 0)"));
  assert_int_equal(fbSim_FindRule(sim, 0, "no_such_rule"), -1);
  assert_false(fbSim_SetWeight(sim, 0, fbSim_FindRule(sim, 0, "no_such_rule"), 1));
  assert_non_null(strstr(heard.text, "fbSim_SetWeight: species 'boid' has no rule -1 (it has 2, from 0"));
  assert_false(fbSim_SetWeight(sim, 0, 2, 1));
  assert_false(fbSim_SetWeight(sim, 0, 1, NAN));
  assert_non_null(strstr(heard.text, "fbSim_SetWeight: boid.alignment.weight: must be between"));
  assert_false(fbSim_SetWeight(sim, 0, 1, INFINITY));
  assert_int_equal(heard.count, 5);
  fbSetLogFunction(NULL, NULL);

  assert_int_equal(fbSim_FindRule(sim, 99, "x"), -1);
  assert_int_equal(fbSim_FindRule(sim, -1, "separation"), -1);
  assert_int_equal(fbSim_FindRule(sim, 0, NULL), -1);

  char msg[512];
  assert_false(fbSim_SetParam(sim, 99, 0, "divisor", 2, msg, sizeof msg));
  assert_non_null(strstr(msg, "fbSim_SetParam: no species 99"));
  assert_false(fbSim_SetParam(sim, 0, -1, "divisor", 2, msg, sizeof msg));
  assert_non_null(strstr(msg, "fbSim_SetParam: species 'boid' has no rule -1"));
  assert_false(fbSim_SetParam(sim, 0, 0, NULL, 2, msg, sizeof msg));
  assert_false(fbSim_SetParam(sim, 0, 0, "divisor", NAN, msg, sizeof msg));
  assert_non_null(strstr(msg, "must be a finite number"));

  fbAgentState agents[8];
  assert_int_equal(fbSim_GetAgents(sim, agents, -5), 0);
  assert_int_equal(fbSim_GetAgents(sim, NULL, 8), 0);
  assert_null(fbSim_SpeciesName(sim, 1));

  assert_true(fbSim_SetWeight(sim, 0, 1, 1.0));  // a good index and weight still work, and the
  for (int k = 0; k < 5; ++k) {                  // refusals changed nothing
    assert_true(fbSim_Step(sim));
    assert_true(fbSim_Step(control));
  }
  assert_true(fbSim_Hash(sim) == fbSim_Hash(control));
  fbSim_Delete(sim);
  fbSim_Delete(control);
}

// A data folder set by the program is the only place shipped rules come from.
static void test_data_folder(void **state)
{
  (void)state;
  char cwd[4096], dir[] = "/tmp/fb_test_api_XXXXXX", err[1024];
  assert_non_null(getcwd(cwd, sizeof cwd));  // the source root, with its behaviours/
  assert_non_null(mkdtemp(dir));
  assert_int_equal(chdir(dir), 0);  // away from it: a rule is looked for as given, too
  fbSetDataFolder(dir);
  fbScenarioDef *d = flock_def(5);
  fbSim *sim = fbSim_New(d, NULL, err, sizeof err);
  fbScenarioDef_Delete(d);
  fbSetDataFolder(NULL);
  assert_int_equal(chdir(cwd), 0);
  rmdir(dir);
  assert_null(sim);
  assert_non_null(strstr(err, "steering.lua"));

  fbSetDataFolder(cwd);  // the source tree, named
  d = flock_def(5);
  sim = fbSim_New(d, NULL, err, sizeof err);
  fbScenarioDef_Delete(d);
  fbSetDataFolder(NULL);
  assert_non_null(sim);
  fbSim_Delete(sim);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_world_from_defs),
      cmocka_unit_test(test_bad_def_is_refused),
      cmocka_unit_test(test_messages_go_to_the_log_function),
      cmocka_unit_test(test_print_goes_to_the_log_function),
      cmocka_unit_test(test_data_folder),
      cmocka_unit_test(test_nan_and_infinity_are_refused_by_name),
      cmocka_unit_test(test_enums_and_counts_out_of_range_are_refused),
      cmocka_unit_test(test_module_names_are_checked),
      cmocka_unit_test(test_placed_agents_are_checked),
      cmocka_unit_test(test_bad_indices_are_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
