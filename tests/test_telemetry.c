// test_telemetry.c — the CSV's columns and values come from the measures' table, whatever it holds.
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "telemetry.h"
#include "sim_internal.h"  // white-box: reads and sets the sim's members
#include "test_util.h"

static fbSim sim;
static bool loaded;
static char path[256], csv[256];

static int teardown(void **state)
{
  (void)state;
  if (loaded) {
    fbSim_Free(&sim);
    loaded = false;
  }
  unlink(path);
  unlink(csv);
  return 0;
}

// The scenario written at `path`, on one thread.
static void load_path(void)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.threads = 1;
  char err[4096];
  if (!fbSim_Load(&sim, path, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
}

// Two species, one of them a single agent (its nearest-neighbour distance is NaN).
static void load_two_species(void)
{
  snprintf(path, sizeof path, "/tmp/flockbox_telemetry_%d.lua", (int)getpid());
  snprintf(csv, sizeof csv, "/tmp/flockbox_telemetry_%d.csv", (int)getpid());
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("return {\n"
        "  world = { width = 100, height = 100, dt = 0.05 },\n"
        "  species = {\n"
        "    { name = 'herd', count = 20, spawn = { speed = { 1, 4 } }, max_speed = 10, vision = { radius = 10 },\n"
        "      rules = { { 'separation' }, { 'cohesion' } } },\n"
        "    { name = 'wolf', count = 1, max_speed = 12, vision = { radius = 20 }, rules = { { 'wander' } } },\n"
        "  },\n"
        "}\n",
        f);
  fclose(f);
  load_path();
  loaded = true;
}

// Every entry of the table names a column and a plot.
static void test_every_measure_is_described(void **state)
{
  (void)state;
  for (int k = 0; k < FB_MEASURES; ++k) {
    const fbMeasure *m = &fbMeasureTable[k];
    assert_true(m->column != NULL && m->column[0] != '\0');
    assert_true(m->title != NULL && m->title[0] != '\0');
    assert_true(m->offset + (m->count ? sizeof(int) : sizeof(double)) <= sizeof(fbMeasures));
    for (int j = 0; j < k; ++j) {
      assert_true(strcmp(fbMeasureTable[j].column, m->column) != 0);
    }
  }
}

// The header is step, time, then S.<column> for each species and measure in table order; the row
// under it holds each measure's value of that species, as fbTelemetry_MeasureSpecies gives it.
// A metric may not take a column telemetry writes: step, time, and SPECIES.<column> for every
// measure of the table (whatever the species is called), and nothing else.
static void test_builtin_columns_are_refused_to_metrics(void **state)
{
  (void)state;
  assert_true(fbMeasures_IsBuiltinColumn("step"));
  assert_true(fbMeasures_IsBuiltinColumn("time"));
  for (int k = 0; k < FB_MEASURES; ++k) {
    char name[64];
    snprintf(name, sizeof name, "herd.%s", fbMeasureTable[k].column);
    assert_true(fbMeasures_IsBuiltinColumn(name));
    assert_false(fbMeasures_IsBuiltinColumn(fbMeasureTable[k].column));  // no species: no collision
    snprintf(name, sizeof name, "herd.%s_x", fbMeasureTable[k].column);
    assert_false(fbMeasures_IsBuiltinColumn(name));
  }
  assert_false(fbMeasures_IsBuiltinColumn("steps"));
  assert_false(fbMeasures_IsBuiltinColumn(".agents"));
}

static void test_columns_follow_the_table(void **state)
{
  (void)state;
  load_two_species();
  for (int k = 0; k < 10; ++k) {
    fbSim_Step(&sim);
  }
  fbTelemetry t;
  char err[512];
  assert_true(fbTelemetry_Open(&t, csv, &sim, err, sizeof err));
  assert_true(fbTelemetry_Row(&t, &sim));
  assert_true(fbTelemetry_Close(&t));
  fbMeasures m[FB_MAX_SPECIES];
  fbTelemetry_MeasureSpecies(&sim, m);

  FILE *f = fopen(csv, "r");
  assert_non_null(f);
  char header[4096], row[4096];
  assert_non_null(fgets(header, sizeof header, f));
  assert_non_null(fgets(row, sizeof row, f));
  fclose(f);
  char *hs, *rs;
  const char *h = strtok_r(header, ",\n", &hs), *r = strtok_r(row, ",\n", &rs);
  assert_string_equal(h, "step");
  h = strtok_r(NULL, ",\n", &hs), r = strtok_r(NULL, ",\n", &rs);
  assert_string_equal(h, "time");
  for (int s = 0; s < sim.world.species_count; ++s) {
    for (int k = 0; k < FB_MEASURES; ++k) {
      h = strtok_r(NULL, ",\n", &hs);
      r = strtok_r(NULL, ",\n", &rs);
      char want[128];
      snprintf(want, sizeof want, "%s.%s", sim.world.species[s].name, fbMeasureTable[k].column);
      assert_non_null(h);
      assert_string_equal(h, want);
      assert_non_null(r);
      double v = fbMeasures_Value(&m[s], k);
      if (isnan(v)) {
        assert_string_equal(r, "NaN");
      } else {
        assert_near(strtod(r, NULL), v, 1e-8 * fmax(1, fabs(v)));
      }
    }
  }
  assert_null(strtok_r(NULL, ",\n", &hs));
  assert_null(strtok_r(NULL, ",\n", &rs));
  assert_int_equal(m[1].agents, 1);  // the wolf is alone: its nearest is NaN
  assert_true(isnan(m[1].mean_nn));
}

// A mill of 24 agents on a circle of radius 5 turning about (cx, cy), in a wrapped world 100 wide
// and high (and within walls, `wrap` false): the rotation column (Couzin's angular momentum) is 1
// and polarisation 0, wherever the circle sits; about (0, 0) it lies across both seams, where the
// plain mean of the positions is nowhere near its centre.
static fbMeasures mill_at(double cx, double cy, bool wrap)
{
  snprintf(path, sizeof path, "/tmp/flockbox_mill_%d.lua", (int)getpid());
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f,
          "local placed = {}\n"
          "for k = 0, 23 do\n"
          "  local t = k * 2 * math.pi / 24\n"
          "  placed[#placed + 1] = { (%g + 5 * math.cos(t)) %% 100, (%g + 5 * math.sin(t)) %% 100,\n"
          "    -2 * math.sin(t), 2 * math.cos(t) }\n"
          "end\n"
          "return { world = { width = 100, height = 100, dt = 0.05, bounds = '%s' },\n"
          "  species = { { name = 'fish', count = 0, agents = placed, max_speed = 5, rules = { { 'wander' } } } } }\n",
          cx, cy, wrap ? "wrap" : "clamp");
  fclose(f);
  load_path();
  fbSim_UpdateGrid(&sim);
  fbMeasures m;
  fbTelemetry_Measure(&sim, &m);
  fbSim_Free(&sim);
  unlink(path);
  return m;
}

static void test_rotation_of_a_mill_across_the_seam(void **state)
{
  (void)state;
  const double centres[][2] = {{50, 50}, {0, 0}, {99, 50}, {50, 2}};
  for (size_t k = 0; k < sizeof centres / sizeof centres[0]; ++k) {
    fbMeasures m = mill_at(centres[k][0], centres[k][1], true);
    print_message("mill about (%g, %g) on a torus: rotation %.6f, polarisation %.6f\n", centres[k][0],
                  centres[k][1], m.rotation, m.polarisation);
    assert_true(fabs(m.rotation - 1) < 1e-9);
    assert_true(m.polarisation < 1e-9);
  }
  fbMeasures walls = mill_at(50, 50, false);
  assert_true(fabs(walls.rotation - 1) < 1e-9);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_measure_is_described),
      cmocka_unit_test(test_builtin_columns_are_refused_to_metrics),
      cmocka_unit_test_teardown(test_columns_follow_the_table, teardown),
      cmocka_unit_test(test_rotation_of_a_mill_across_the_seam),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
