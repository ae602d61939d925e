// test_build.c — worlds from plain C definitions: built without Lua, checked like scenario files, and --set through the same schema.
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>
#include <unistd.h>

#include "overrides.h"
#include "schema.h"
#include "sim_internal.h"  // white-box: reads and sets the sim's members

static fbSim sim;
static char err[4096];

// A rule written in C: toward the centre of the flock-mates in view, braked by the agent's own
// velocity so that the flock settles instead of oscillating through its centre.
static fbVec2 cohesion(const fbRuleContext *c, int i)
{
  const fbAgents *a = &c->world->agents;
  if (c->agg->n[i] == 0) {
    return fbV(0, 0);
  }
  return fbV((c->agg->cx[i] - a->px[i]) / 5.0 - a->vx[i], (c->agg->cy[i] - a->py[i]) / 5.0 - a->vy[i]);
}

// Root-mean-square distance of the agents from their centre.
static double spread(const fbSim *s)
{
  const fbAgents *a = &s->world.agents;
  double cx = 0, cy = 0, sum = 0;
  for (int i = 0; i < a->count; ++i) {
    cx += a->px[i] / a->count;
    cy += a->py[i] / a->count;
  }
  for (int i = 0; i < a->count; ++i) {
    sum += (a->px[i] - cx) * (a->px[i] - cx) + (a->py[i] - cy) * (a->py[i] - cy);
  }
  return sqrt(sum / a->count);
}

static fbScenarioDef *flock_def(void)
{
  fbScenarioDef *d = fbScenarioDef_New();
  d->world.width = 80;
  d->world.height = 80;
  d->world.bounds = FB_BOUNDS_CLAMP;
  fbSpeciesDef *boid = fbScenarioDef_AddSpecies(d, "boid");
  boid->count = 40;
  boid->spawn.around[0] = 40;
  boid->spawn.around[1] = 40;
  boid->spawn.around[2] = 20;
  boid->vision.radius = 60;
  boid->vision.fov = 360;
  return d;
}

// A world made in C alone, with a rule written in C: no scenario file, no Lua rule.
static void test_world_without_lua(void **state)
{
  (void)state;
  fbScenarioDef *d = flock_def();
  fbSpeciesDef_AddRule(&d->species[0], NULL)->native = cohesion;
  fbRunOptions o;
  fbRunOptions_Default(&o);
  if (!fbSim_Create(&sim, d, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  fbScenarioDef_Delete(d);
  assert_int_equal(sim.world.agents.count, 40);
  assert_true(sim.world.species[0].all_native);
  double before = spread(&sim);
  for (int k = 0; k < 200; ++k) {
    assert_true(fbSim_Step(&sim));
  }
  double after = spread(&sim);
  print_message("spread %.2f -> %.2f under a cohesion rule written in C\n", before, after);
  assert_true(after < 0.5 * before);
  fbSim_Free(&sim);
}

// The same scenario read from Lua and written in C is the same world, step for step.
static void test_lua_reader_fills_the_same_defs(void **state)
{
  (void)state;
  char path[64];
  snprintf(path, sizeof path, "/tmp/flockbox_build_%d.lua", (int)getpid());
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("return { world = { width = 80, height = 80, bounds = 'clamp' },\n"
        "  species = { { name = 'boid', count = 40, spawn = { around = { 40, 40, 20 } },\n"
        "    vision = { radius = 60, fov = 360 },\n"
        "    rules = { 'separation', { 'cohesion', weight = 2, params = { divisor = 50 } } } } } }\n",
        f);
  fclose(f);
  fbRunOptions o;
  fbRunOptions_Default(&o);
  if (!fbSim_Load(&sim, path, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  unlink(path);
  static fbSim from_c;
  fbScenarioDef *d = flock_def();
  fbSpeciesDef_AddRule(&d->species[0], "separation");
  fbRuleDef *c = fbSpeciesDef_AddRule(&d->species[0], "cohesion");
  c->weight = 2;
  fbRuleDef_SetNumber(c, "divisor", 50);
  if (!fbSim_Create(&from_c, d, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  fbScenarioDef_Delete(d);
  for (int k = 0; k < 100; ++k) {
    fbSim_Step(&sim);
    fbSim_Step(&from_c);
  }
  assert_true(fbSim_Hash(&sim) == fbSim_Hash(&from_c));
  assert_string_equal(fbSim_RuleName(&from_c, 0, 1), "cohesion");
  fbSim_Free(&from_c);
  fbSim_Free(&sim);
}

// fbSim_Create of a C def must fail with `message`.
static void expect_refused(fbScenarioDef *d, const char *message)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  assert_false(fbSim_Create(&sim, d, &o, err, sizeof err));
  if (strstr(err, message) == NULL) {
    fail_msg("expected '%s' in: %s", message, err);
  }
  fbScenarioDef_Delete(d);
}

// A world built in C gets the checks a scenario file gets: ranges, landmarks, names.
static void test_c_defs_are_checked(void **state)
{
  (void)state;
  fbScenarioDef *d = flock_def();
  d->species[0].vision.fov = 400;
  expect_refused(d, "species[1].vision.fov: must be between 0 and 360 (got 400)");
  d = flock_def();
  d->species[0].max_speed = 5;
  d->species[0].cruise_speed = 8;
  expect_refused(d, "species[1].cruise_speed: must not exceed max_speed");
  d = flock_def();
  snprintf(d->species[0].vision.sees[0], FB_NAME_LEN, "wolf");
  d->species[0].vision.sees_count = 1;
  expect_refused(d, "species[1].vision.sees[1]: unknown species 'wolf'");
  d = flock_def();
  fbSpeciesDef_AddRule(&d->species[0], "cohesoin");
  expect_refused(d, "species[1].rules[1].rule: unknown rule 'cohesoin'");
  d = flock_def();
  fbRuleDef_SetNumber(fbSpeciesDef_AddRule(&d->species[0], "cohesion"), "gian", 2);
  expect_refused(d, "params.gian: unknown parameter");
  d = flock_def();
  d->world.dt = 0;
  expect_refused(d, "world.dt: must be between");
}

static void expect_set(fbScenarioDef *d, const char *set, const char *message)
{
  const char *sets[] = {set};
  bool ok = fbOverrides_Apply(d, sets, 1, err, sizeof err);
  if (message == NULL && !ok) {
    fail_msg("--set %s: %s", set, err);
  }
  if (message != NULL && (ok || strstr(err, message) == NULL)) {
    fail_msg("--set %s: expected '%s', got %s", set, message, ok ? "success" : err);
  }
}

// --set writes the fields the reader writes, by the same names, with the same checks.
static void test_set_goes_through_the_schema(void **state)
{
  (void)state;
  fbScenarioDef *d = flock_def();
  fbSpeciesDef *boid = &d->species[0];
  fbSpeciesDef_AddRule(boid, "cohesion");
  expect_set(d, "boid.vision.fov=180", NULL);
  assert_true(boid->vision.fov == 180);
  expect_set(d, "world.bounds=wrap", NULL);
  assert_int_equal(d->world.bounds, FB_BOUNDS_WRAP);
  expect_set(d, "boid.spawn.speed=1,3", NULL);
  assert_true(boid->spawn.speed[0] == 1 && boid->spawn.speed[1] == 3);
  expect_set(d, "boid.accumulator=prioritised", NULL);
  assert_int_equal(boid->accumulator, FB_ACCUM_PRIORITISED);
  expect_set(d, "boid.cohesion.weight=0.5", NULL);
  assert_true(boid->rules[0].weight == 0.5);
  expect_set(d, "boid.cohesion.divisor=50", NULL);
  assert_int_equal(boid->rules[0].params[0].kind, FB_VALUE_INTEGER);
  assert_true(boid->rules[0].params[0].number == 50);
  expect_set(d, "boid.accumulator=average", "expected \"weighted\", \"prioritised\", \"exclusive\"");  // no alias
  expect_set(d, "boid.vision.fov=400", "species[1].vision.fov: must be between 0 and 360");
  expect_set(d, "boid.rules=x", "cannot be set from the command line");
  expect_set(d, "boid.speed=3", "species 'boid' has no field or rule 'speed'");
  expect_set(d, "wolf.max_speed=3", "no world field, terrain field or species named 'wolf'");
  fbScenarioDef_Delete(d);
}

// An option of a group (vision.*, orca.*) reaches the running species with no copy of its own:
// fbSpeciesDef_Build holds each group whole (fbSpecies.vision.def, fbSpecies.orca), so every field of
// the group's block in the schema, set through --set, is found in the built species at the same
// place in the group. A new option added to a group is covered by this walk; one copied field by
// field, or a group no longer held whole, fails it.
static void test_option_groups_reach_the_species_whole(void **state)
{
  (void)state;
  static const struct {
    const char *prefix;
    size_t def_at, run_at;
  } groups[] = {
      {"vision.", offsetof(fbSpeciesDef, vision), offsetof(fbSpecies, vision.def)},
      {"orca", offsetof(fbSpeciesDef, orca), offsetof(fbSpecies, orca)},
  };
  fbScenarioDef *d = flock_def();
  fbSpeciesDef *def = &d->species[0];
  for (size_t g = 0; g < sizeof groups / sizeof groups[0]; ++g) {
    int seen = 0;
    for (int k = 0; k < fbSpeciesSchema.count; ++k) {
      const fbField *f = &fbSpeciesSchema.fields[k];
      if (strncmp(f->name, groups[g].prefix, strlen(groups[g].prefix)) != 0 || f->kind == FB_FIELD_TABLE) {
        continue;
      }
      char set[128], value[32];
      fbChoice c, last = {0};
      if (f->kind == FB_FIELD_CHOICE) {  // its last name: not the default, which is the first
        for (int q = 0; fbField_Choice(f, q, &c); ++q) {
          last = c;
        }
        snprintf(value, sizeof value, "%s", last.name);
      } else if (f->kind == FB_FIELD_BOOL) {
        snprintf(value, sizeof value, "true");
      } else {  // a number in range other than its default: the top of a small range, else 3
        snprintf(value, sizeof value, "%.17g", f->hi <= 100 ? f->hi : fmax(f->lo, 3.0));
      }
      snprintf(set, sizeof set, "boid.%s=%s", f->name, value);
      expect_set(d, set, NULL);
      seen++;
    }
    assert_true(seen >= 3);
    fbSpecies run;
    assert_true(fbSpeciesDef_Build(def, d->world.dt, &run, "species[1]", err, sizeof err));
    for (int k = 0; k < fbSpeciesSchema.count; ++k) {
      const fbField *f = &fbSpeciesSchema.fields[k];
      if (strncmp(f->name, groups[g].prefix, strlen(groups[g].prefix)) != 0 || f->kind == FB_FIELD_TABLE) {
        continue;
      }
      size_t size = f->kind == FB_FIELD_NUMBER ? sizeof(double) : f->kind == FB_FIELD_BOOL ? sizeof(bool) : sizeof(int);
      const char *written = (const char *)def + f->offset;
      const char *running = (const char *)&run + groups[g].run_at + (f->offset - groups[g].def_at);
      if (memcmp(written, running, size) != 0) {
        fail_msg("%s: the running species does not hold it where its group is", f->name);
      }
    }
  }
  fbScenarioDef_Delete(d);
}

// Every field a scenario may write can also be set from the command line: there is one list. A
// choice is set to each of its names (every combiner, aliases too).
static void test_every_species_field_is_settable(void **state)
{
  (void)state;
  fbScenarioDef *d = flock_def();
  for (int k = 0; k < fbSpeciesSchema.count; ++k) {
    const fbField *f = &fbSpeciesSchema.fields[k];
    const char *value = NULL;
    char number[32];
    fbChoice c;
    for (int q = 0; f->kind == FB_FIELD_CHOICE && fbField_Choice(f, q, &c); ++q) {
      char set[128];
      snprintf(set, sizeof set, "boid.%s=%s", f->name, c.name);
      expect_set(d, set, NULL);
      int stored;
      memcpy(&stored, (const char *)&d->species[0] + f->offset, sizeof stored);
      assert_int_equal(stored, c.value);
    }
    switch (f->kind) {
    case FB_FIELD_NUMBER:
    case FB_FIELD_INT:  // a value in range: 1, or the lowest allowed when that is more
      snprintf(number, sizeof number, "%.17g", f->lo > 1 ? f->lo : 1.0);
      value = number;
      break;
    case FB_FIELD_BOOL: value = "true"; break;
    case FB_FIELD_TEXT: value = "boid"; break;
    case FB_FIELD_LIST: value = f->size == 3 ? "1,2,3" : "1,2,3,4"; break;
    case FB_FIELD_RANGE: value = "1,2"; break;
    case FB_FIELD_CHOICE:
    case FB_FIELD_TABLE: continue;
    }
    char set[128];
    snprintf(set, sizeof set, "boid.%s=%s", f->name, value);
    expect_set(d, set, NULL);
  }
  fbScenarioDef_Delete(d);
}

// A string parameter is one short line, from a C def as from a scenario: fbRuleDef_SetParam refuses
// a control character, and one written into params[] directly is refused by the sim, named.
static void test_string_parameters_are_one_line(void **state)
{
  (void)state;
  fbScenarioDef *d = flock_def();
  fbRuleDef *chase = fbSpeciesDef_AddRule(&d->species[0], "chase");
  fbParamDef p = {.name = "target", .kind = FB_VALUE_STRING, .text = "f\r\n"};
  assert_false(fbRuleDef_SetParam(chase, &p));
  snprintf(p.text, sizeof p.text, "boid");
  assert_true(fbRuleDef_SetParam(chase, &p));
  fbRunOptions o;
  fbRunOptions_Default(&o);
  if (!fbSim_Create(&sim, d, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  snprintf(p.text, sizeof p.text, "bo\x1bid");  // the panel and the embedding API change it through here
  assert_false(fbSim_SetParamValue(&sim, 0, 0, &p, err, sizeof err));
  assert_non_null(strstr(err, "chase.target: holds a control character (byte 27 at 3)"));
  fbSim_Free(&sim);
  snprintf(chase->params[0].text, sizeof chase->params[0].text, "bo\nid");
  expect_refused(d, "rule 'chase': params.target: holds a control character (byte 10 at 3)");
}

// Every integer field of every table refuses a fraction, naming the field, rather than cut it: a
// scenario, --set and the C API all write through fbField_SetNumber.
static void test_integer_fields_refuse_fractions(void **state)
{
  (void)state;
  const fbSchema *schemas[] = {&fbScenarioSchema, &fbSpeciesSchema, &fbRuleSchema, &fbPathSchema, &fbFlowSchema};
  int seen = 0;
  for (size_t q = 0; q < sizeof schemas / sizeof schemas[0]; ++q) {
    for (int k = 0; k < schemas[q]->count; ++k) {
      const fbField *f = &schemas[q]->fields[k];
      if (f->kind != FB_FIELD_INT) {
        continue;
      }
      static char def[1 << 16];  // larger than any def: only the field's bytes are written
      char msg[256];
      assert_true(f->offset + sizeof(int) <= sizeof def);
      double whole = f->lo > 1 ? f->lo : 1;
      assert_true(fbField_SetNumber(f, def, whole, msg, sizeof msg));
      if (fbField_SetNumber(f, def, whole + 0.5, msg, sizeof msg) || strstr(msg, "must be a whole number") == NULL) {
        fail_msg("%s took %g: %s", f->name, whole + 0.5, msg);
      }
      seen++;
    }
  }
  print_message("%d integer fields refuse a fraction\n", seen);
  assert_true(seen >= 6);  // count, collision_iterations, terrain.samples, vision.sample, update_every, orca.neighbours
  fbScenarioDef *d = flock_def();
  expect_set(d, "boid.orca.neighbours=2.5", "species[1].orca.neighbours: must be a whole number (got 2.5)");
  expect_set(d, "boid.vision.sample=2.5", "species[1].vision.sample: must be a whole number (got 2.5)");
  expect_set(d, "boid.vision.sample=3", NULL);
  fbScenarioDef_Delete(d);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_world_without_lua),
      cmocka_unit_test(test_lua_reader_fills_the_same_defs),
      cmocka_unit_test(test_c_defs_are_checked),
      cmocka_unit_test(test_set_goes_through_the_schema),
      cmocka_unit_test(test_every_species_field_is_settable),
      cmocka_unit_test(test_option_groups_reach_the_species_whole),
      cmocka_unit_test(test_string_parameters_are_one_line),
      cmocka_unit_test(test_integer_fields_refuse_fractions),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
