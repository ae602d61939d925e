// test_state.c — a saved state goes on bit-identically (save at 300, load, 200 more == 500 straight), and bad states are refused.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "sim_internal.h"  // white-box: compares every agent array
#include "state.h"
#include "test_util.h"

// In a scratch folder of the test's own, not the source tree (tests run from the source root).
#define STATE_FILE fbTest_ScratchPath("test_state.state")

static void load(fbSim *sim, const char *path, int threads, const char *set)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.seed = 7;
  o.threads = threads;
  if (set != NULL) {
    o.sets[o.set_count++] = set;
  }
  char err[4096];
  if (!fbSim_Load(sim, path, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
}

static void steps(fbSim *sim, int n)
{
  for (int k = 0; k < n; ++k) {
    if (!fbSim_Step(sim)) {
      fail_msg("%s", sim->error);
    }
  }
}

static void save(fbSim *sim)
{
  char err[4096];
  if (!fbState_Save(sim, STATE_FILE, err, sizeof err)) {
    fail_msg("%s", err);
  }
}

// Every agent array, both field buffers, the counters and the scenario's metrics (its upvalues).
static void assert_same(fbSim *a, fbSim *b)
{
  assert_int_equal(fbSim_Hash(a), fbSim_Hash(b));
  assert_int_equal(a->world.step, b->world.step);
  assert_int_equal(a->world.next_id, b->world.next_id);
  assert_int_equal(a->world.removed_total, b->world.removed_total);
  assert_int_equal(a->catches, b->catches);
  const fbAgents *x = &a->world.agents, *y = &b->world.agents;
  assert_int_equal(x->count, y->count);
  for (int i = 0; i < x->count; ++i) {
    int j = fbWorld_FindAgent(&b->world, x->id[i]);
    assert_true(j >= 0);
    const double *xs[] = {x->px, x->py, x->vx, x->vy, x->hx, x->hy, x->ax, x->ay, x->fx, x->fy, x->dx, x->dy, x->energy};
    const double *ys[] = {y->px, y->py, y->vx, y->vy, y->hx, y->hy, y->ax, y->ay, y->fx, y->fy, y->dx, y->dy, y->energy};
    for (size_t k = 0; k < sizeof xs / sizeof xs[0]; ++k) {
      assert_memory_equal(&xs[k][i], &ys[k][j], sizeof(double));
    }
    assert_int_equal(x->species[i], y->species[j]);
    assert_int_equal(x->held[i], y->held[j]);
    for (int f = 0; f < a->world.field_count; ++f) {
      assert_memory_equal(&x->field[f][i], &y->field[f][j], sizeof(double));
      assert_memory_equal(&x->field_next[f][i], &y->field_next[f][j], sizeof(double));
    }
  }
  double ma[FB_MAX_METRICS], mb[FB_MAX_METRICS];
  assert_true(fbSim_Metrics(a, ma));
  assert_true(fbSim_Metrics(b, mb));
  assert_memory_equal(ma, mb, sizeof(double) * (size_t)a->hooks.metric_count);
}

static fbSim straight, resumed;

// 300 steps on `threads`, saved; loaded into a fresh sim on `threads`, 200 more; 500 straight on 1.
static void check_resume(const char *path, int threads)
{
  load(&resumed, path, threads, NULL);
  steps(&resumed, 300);
  save(&resumed);
  fbSim_Free(&resumed);
  load(&resumed, path, threads, NULL);
  fbStateInfo info;
  char err[4096];
  if (!fbState_Load(&resumed, STATE_FILE, &info, err, sizeof err)) {
    fail_msg("%s", err);
  }
  assert_int_equal(info.step, 300);
  assert_false(info.rules_differ);
  steps(&resumed, 200);
  load(&straight, path, 1, NULL);
  steps(&straight, 500);
  assert_same(&straight, &resumed);
  fbSim_Free(&straight);
  fbSim_Free(&resumed);
}

static void test_classic_flock(void **state)
{
  (void)state;
  check_resume("scripts/classic_flock.lua", 1);
  check_resume("scripts/classic_flock.lua", 3);
}

static void test_perching_birds(void **state)  // landings and landed: upvalues of on_step and a metric
{
  (void)state;
  check_resume("scripts/perching_birds.lua", 1);
  check_resume("scripts/perching_birds.lua", 3);
}

static void test_predator_prey(void **state)  // removals, spawns from the hook (math.random), catches
{
  (void)state;
  check_resume("scripts/predator_prey.lua", 1);
  check_resume("scripts/predator_prey.lua", 3);
}

// A hook's fb.set_param at step 100 is in the state saved at 300 (it used to be lost: the resumed
// run went on with the scenario's values).
static void test_params_set_by_a_hook(void **state)
{
  (void)state;
  check_resume("tests/data/param_hook.lua", 1);
  check_resume("tests/data/param_hook.lua", 3);
}

static void test_herd_split(void **state)
{
  (void)state;
  check_resume("scripts/herd_split.lua", 1);
  check_resume("scripts/herd_split.lua", 3);
}

// A fresh sim of scenario `path` with `set`, asked to load the file: refused with a message holding `want`.
static void assert_refused(const char *path, const char *set, const char *want)
{
  fbSim sim;
  load(&sim, path, 1, set);
  fbStateInfo info;
  char err[4096] = "";
  bool ok = fbState_Load(&sim, STATE_FILE, &info, err, sizeof err);
  fbSim_Free(&sim);
  if (ok || strstr(err, want) == NULL || strstr(err, STATE_FILE) == NULL) {
    fail_msg("expected a refusal naming the file and '%s', got %s: %s", want, ok ? "loaded" : "refused", err);
  }
}

static void saved_classic_flock(const char *set)
{
  fbSim sim;
  load(&sim, "scripts/classic_flock.lua", 1, set);
  steps(&sim, 20);
  save(&sim);
  fbSim_Free(&sim);
}

static long file_size(void)
{
  FILE *f = fopen(STATE_FILE, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fclose(f);
  return n;
}

static void rewrite(long cut, long flip)
{
  static unsigned char data[1 << 20];
  FILE *f = fopen(STATE_FILE, "rb");
  long n = (long)fread(data, 1, sizeof data, f);
  fclose(f);
  if (flip >= 0 && flip < n) {
    data[flip] ^= 0x5a;
  }
  f = fopen(STATE_FILE, "wb");
  fwrite(data, 1, (size_t)(cut >= 0 && cut < n ? cut : n), f);
  fclose(f);
}

static void test_refused(void **state)
{
  (void)state;
  saved_classic_flock(NULL);
  assert_refused("scripts/two_flocks.lua", NULL, "saved from scenario");
  assert_refused("scripts/classic_flock.lua", "boid.max_speed=8", "--set");
  saved_classic_flock("boid.max_speed=8");
  assert_refused("scripts/classic_flock.lua", "boid.max_speed=9", "--set boid.max_speed=8");
  assert_refused("scripts/classic_flock.lua", NULL, "--set");
  saved_classic_flock(NULL);
  rewrite(-1, 0);
  assert_refused("scripts/classic_flock.lua", NULL, "bad magic");
  assert_refused("scripts/classic_flock.lua", NULL, "bad magic");
  // Cut anywhere, or one byte flipped anywhere: refused with a message, never a crash.
  for (int k = 1; k < 40; ++k) {
    saved_classic_flock(NULL);
    long n = file_size();
    rewrite(n * k / 40, -1);
    assert_refused("scripts/classic_flock.lua", NULL, "");
    saved_classic_flock(NULL);
    rewrite(-1, 8 + (n - 8) * k / 40);
    assert_refused("scripts/classic_flock.lua", NULL, "");
  }
  saved_classic_flock(NULL);
  rewrite(file_size() - 1, -1);
  assert_refused("scripts/classic_flock.lua", NULL, "truncated or corrupt");
}

// Corrupt snapshots handed to fbState_Restore itself (no SHA-256 to catch them): every length checked.
static void test_restore_checks_lengths(void **state)
{
  (void)state;
  fbSim sim;
  load(&sim, "scripts/perching_birds.lua", 1, NULL);
  steps(&sim, 30);
  fbBytes b = {0};
  char err[4096];
  assert_true(fbState_Snapshot(&sim, &b, err, sizeof err));
  for (size_t cut = 0; cut < b.len; cut += 1 + b.len / 97) {
    assert_false(fbState_Restore(&sim, b.data, cut, false, err, sizeof err));
    if (strstr(err, "truncated") == NULL && strstr(err, "malformed") == NULL) {
      fail_msg("cut at %zu of %zu: %s", cut, b.len, err);
    }
    fbSim_Free(&sim);
    load(&sim, "scripts/perching_birds.lua", 1, NULL);
  }
  assert_true(fbState_Restore(&sim, b.data, b.len, false, err, sizeof err));
  fbBytes_Free(&b);
  fbSim_Free(&sim);
}

static void test_coroutine_refused(void **state)
{
  (void)state;
  fbSim sim;
  load(&sim, "tests/data/state_coroutine.lua", 1, NULL);
  steps(&sim, 3);
  char err[4096] = "";
  assert_false(fbState_Save(&sim, fbTest_ScratchPath("coroutine.state"), err, sizeof err));
  assert_non_null(strstr(err, "'on_step.ticker'"));
  assert_non_null(strstr(err, "coroutine"));
  fbSim_Free(&sim);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_classic_flock),     cmocka_unit_test(test_perching_birds),
      cmocka_unit_test(test_predator_prey),     cmocka_unit_test(test_herd_split),
      cmocka_unit_test(test_refused),           cmocka_unit_test(test_restore_checks_lengths),
      cmocka_unit_test(test_coroutine_refused), cmocka_unit_test(test_params_set_by_a_hook),
  };
  return fb_run_tests(tests);
}
