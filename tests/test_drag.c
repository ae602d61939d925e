// test_drag.c — the two forms of a linear drag (species drag = "exact" | "gompert"): one step by hand, Gompert's two-frame sum, and his stuck herds on steep terrain.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "integrate.h"
#include "rule_api.h"
#include "sim_internal.h"  // white-box: reads the sim's agents
#include "test_util.h"
#include "demo_util.h"

#define EPS 1e-12

static char err[2048];

// ---- one step, both forms, by hand --------------------------------------------------------------

static fbBody moving_x(double vx)
{
  return (fbBody){.p = fbV(10, 10), .v = fbV(vx, 0), .heading = fbV(1, 0)};
}

// u = 2 along x, drag -k u with k = 3 (D = (-6, 0)), steering (1, 0.5), dt = 0.1, flat ground.
//   exact:   u' = 2 e^-0.3 + 1 (1 - e^-0.3) / 3 = 1.4816364 + 0.0863939 = 1.5680304
//   gompert: u' = 2 + (1 - 6) 0.1 = 1.5
// Across the drag both give v_y = 0.5 * 0.1; both move by the old velocity (euler): x + 0.2.
static void test_one_step_of_each_form(void **state)
{
  (void)state;
  fbTerrain flat = {.world_w = 64, .world_h = 64, .cell_w = 64, .cell_h = 64};
  fbIntegrateEnv env = fbIntegrate_Env(&flat, NULL, 0.1, 64, 64, FB_BOUNDS_CLAMP);
  fbMotionLimits lim = {.max_speed = 100, .max_accel = 100, .max_turn = FB_PI};
  fbBody b = moving_x(2);
  fbIntegrate_Body(&b, fbV(1, 0.5), fbV(0, 0), fbV(-6, 0), &lim, &env);
  assert_near(b.v.x, 1.568030367802863, EPS);
  assert_near(b.v.y, 0.05, EPS);
  assert_near(b.p.x, 10.2, EPS);
  lim.drag_form = FB_DRAG_GOMPERT;
  b = moving_x(2);
  fbIntegrate_Body(&b, fbV(1, 0.5), fbV(0, 0), fbV(-6, 0), &lim, &env);
  assert_near(b.v.x, 1.5, EPS);
  assert_near(b.v.y, 0.05, EPS);
  assert_near(b.p.x, 10.2, EPS);
}

// k dt = 3, no steering: the exact drag decays u to 2 e^-3 = 0.0996; his explicit step maps u to
// u (1 - k dt) = -4, a climb turned into a descent twice as fast (integrate.c, add_drag).
static void test_large_k_dt_reverses_only_gomperts(void **state)
{
  (void)state;
  fbTerrain flat = {.world_w = 64, .world_h = 64, .cell_w = 64, .cell_h = 64};
  fbIntegrateEnv env = fbIntegrate_Env(&flat, NULL, 0.1, 64, 64, FB_BOUNDS_CLAMP);
  fbMotionLimits lim = {.max_speed = 100, .max_accel = 100, .max_turn = FB_PI};
  fbBody b = moving_x(2);
  fbIntegrate_Body(&b, fbV(0, 0), fbV(0, 0), fbV(-60, 0), &lim, &env);
  assert_near(b.v.x, 2 * exp(-3.0), EPS);
  lim.drag_form = FB_DRAG_GOMPERT;
  b = moving_x(2);
  fbIntegrate_Body(&b, fbV(0, 0), fbV(0, 0), fbV(-60, 0), &lim, &env);
  assert_near(b.v.x, -4.0, EPS);
}

// A drag along the motion grows u (a negative drag factor). A rule's drag of 1e9 on u = 1e-3 asks for
// e^(5e10) in one step: without a cap the exponent overflows and the velocity becomes NaN (found by
// fuzz_rule: "return 10e8, 3"). The step stays finite and the speed limit cuts it.
static void test_huge_negative_drag_stays_finite(void **state)
{
  (void)state;
  fbTerrain flat = {.world_w = 64, .world_h = 64, .cell_w = 64, .cell_h = 64};
  fbIntegrateEnv env = fbIntegrate_Env(&flat, NULL, 0.05, 64, 64, FB_BOUNDS_WRAP);
  fbMotionLimits lim = {.max_speed = 10, .max_accel = 20, .max_turn = FB_PI};
  fbBody b = moving_x(1e-3);
  fbIntegrate_Body(&b, fbV(-20, 0), fbV(0, 0), fbV(1e9, 3), &lim, &env);
  assert_true(isfinite(b.v.x) && isfinite(b.v.y));
  assert_near(fbV_Length(b.v), 10.0, 1e-9);  // grown to the speed limit, along the drag
  assert_true(b.v.x > 9.99);
}

// ---- Gompert's frames between behaviour updates -------------------------------------------------

#define K_DRAG 2.0

static fbVec2 steer_ahead(const fbRuleContext *c, int i)
{
  (void)c;
  (void)i;
  return fbV(0.5, 0);
}

// A linear drag along x: D = -K u n, n = (1, 0), u = v_x.
static fbVec2 drag_along_x(const fbRuleContext *c, int i) { return fbV(-K_DRAG * c->world->agents.vx[i], 0); }

// Two agents far apart at v = (1, 0) on flat ground, steered by (0.5, 0) and dragged by -2 v_x,
// with steering recomputed every 2nd step (8.2): agent 1 steers on odd steps, agent 2 on even.
static void create_pair(fbDragForm form, bool as_force)
{
  fbScenarioDef *d = fbScenarioDef_New();
  d->world.width = d->world.height = 1000;
  d->world.bounds = FB_BOUNDS_CLAMP;
  d->world.dt = 0.1;
  d->world.update = FB_UPDATE_EULER;
  fbSpeciesDef *s = fbScenarioDef_AddSpecies(d, "herd");
  s->count = 0;
  s->vision.radius = 0;
  s->collide = false;
  s->update_every = 2;
  s->drag = form;
  fbSpeciesDef_AddRule(s, NULL)->native = steer_ahead;
  fbRuleDef *r = fbSpeciesDef_AddRule(s, NULL);
  r->native = drag_along_x;
  r->drag = !as_force;
  r->force = as_force;
  fbScenarioDef_PlaceAgent(d, 0, fbV(100, 100), fbV(1, 0));
  fbScenarioDef_PlaceAgent(d, 0, fbV(300, 300), fbV(1, 0));
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.threads = 1;
  if (!fbSim_Create(&sim, d, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  sim_loaded = true;
  fbScenarioDef_Delete(d);
}

static double vx_of(uint32_t id) { return sim.world.agents.vx[fbWorld_FindAgent(&sim.world, id)]; }
static double px_of(uint32_t id) { return sim.world.agents.px[fbWorld_FindAgent(&sim.world, id)]; }

/*
 * His Update and Update_Behaviors by hand, dt = 0.1, s = 0.5, D = -2 u.
 * Agent 2 updates its behaviour before frame 1 (step 0), then not before frame 2:
 *   frame 1: a = s + D_1 = 0.5 - 2,                  u = 1 - 0.15 = 0.85
 *   frame 2: a = s + D_1 + D_2 = 0.5 - 2 - 1.7,      u = 0.85 - 0.32 = 0.53
 *   positions by the old velocity: x = 300 + 0.1, then + 0.085.
 * Agent 1 has no behaviour yet in frame 1 (his initial acceleration is 0) and updates before frame 2:
 *   frame 1: a = D_1 = -2,                           u = 0.8
 *   frame 2: a = s + D_2 = 0.5 - 1.6 (the sum reset), u = 0.69
 */
static void test_gompert_sums_the_drag_between_behaviour_updates(void **state)
{
  (void)state;
  create_pair(FB_DRAG_GOMPERT, false);
  step();
  assert_near(vx_of(2), 0.85, EPS);
  assert_near(vx_of(1), 0.8, EPS);
  step();
  assert_near(vx_of(2), 0.53, EPS);
  assert_near(px_of(2), 300.185, 1e-9);
  assert_near(vx_of(1), 0.69, EPS);
  unload();
}

// At update_every 2 the exact form does not sum: frame 2 of agent 2 is 0.85 under s = 0.5, k = 2,
// u' = 0.85 e^-0.2 + 0.5 (1 - e^-0.2) / 2. And Gompert's form without the sum (a drag listed as a
// plain force) gives frame 2 as 0.85 + (0.5 - 1.7) 0.1 = 0.73: the 0.2 between them is the sum.
static void test_exact_and_force_do_not_sum(void **state)
{
  (void)state;
  create_pair(FB_DRAG_EXACT, false);
  step();
  step();
  double e = exp(-0.2);
  double u1 = 1 * e + 0.5 * (1 - e) / 2;
  assert_near(vx_of(2), u1 * e + 0.5 * (1 - e) / 2, EPS);
  unload();
  create_pair(FB_DRAG_EXACT, true);
  step();
  step();
  assert_near(vx_of(2), 0.73, EPS);
  unload();
}

// ---- his stuck herds ----------------------------------------------------------------------------

/*
 * Gompert's trip (scripts/gompert_trip.lua) on terrain five times as high, K = 55 uphill, behaviour
 * every 10th frame: with his form a herd can be held on a slope, its climb reversed in the frames
 * where the summed drag overshoots; with ours it only climbs slower, and arrives. Measured over
 * seeds 1-100 (experiments/figure6_drag_forms.lua; docs/experiments.md, "Gompert's drag, his form
 * and ours"): exact arrives every time, by 30.0 s at the latest; gompert is stuck at 120 s in 21 of
 * 100. Here a trip is cut at TRIP_LIMIT s, past exact's longest, and one not there by then counts
 * as held. Seeds 1-10: exact arrives by 22.0 s in all; gompert is held in 7 (6 stuck at 120 s, one
 * arriving at 52.9 s). A sanitizer build runs seeds 1-4 (gompert held in all 4).
 */
#if defined(__SANITIZE_ADDRESS__)
#define SEEDS 4
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SEEDS 4
#else
#define SEEDS 10
#endif
#else
#define SEEDS 10
#endif
#define TRIP_LIMIT 40.0

static bool trip_arrives(const char *form, int seed)
{
  char generate[64], drag[64];
  snprintf(generate, sizeof generate, "terrain.generate=%d", seed);
  snprintf(drag, sizeof drag, "herd.drag=%s", form);
  const char *sets[] = {generate, drag, "terrain.height=5", "herd.terrain_drag.uphill=55",
                        "herd.terrain_drag.downhill=6", "herd.update_every=10"};
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.headless = true;
  o.threads = 1;
  o.seed = (uint64_t)seed;
  for (size_t k = 0; k < sizeof sets / sizeof sets[0]; ++k) {
    o.sets[o.set_count++] = sets[k];
  }
  if (!fbSim_Load(&sim, "scripts/gompert_trip.lua", &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  sim_loaded = true;
  const char *outcome = NULL;
  double t = 0;
  for (int k = 0; k < (int)lround(TRIP_LIMIT / sim.world.dt) && outcome == NULL; ++k) {
    step();
    outcome = fbSim_Outcome(&sim, &t);
  }
  bool arrived = outcome != NULL && strcmp(outcome, "arrived") == 0;
  unload();
  return arrived;
}

static void test_gomperts_form_holds_herds_on_steep_terrain(void **state)
{
  (void)state;
  int exact = 0, gompert = 0;
  for (int seed = 1; seed <= SEEDS; ++seed) {
    exact += trip_arrives("exact", seed);
    gompert += trip_arrives("gompert", seed);
  }
  print_message("K = 55, height 5, update_every 10, seeds 1-%d: arrived within %.0f s: exact %d, gompert %d\n",
                SEEDS, TRIP_LIMIT, exact, gompert);
  assert_int_equal(exact, SEEDS);
  assert_true(SEEDS - gompert >= (SEEDS == 10 ? 4 : 2));  // measured 7 of 10, 4 of 4
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_one_step_of_each_form),
      cmocka_unit_test(test_large_k_dt_reverses_only_gomperts),
      cmocka_unit_test(test_huge_negative_drag_stays_finite),
      cmocka_unit_test_teardown(test_gompert_sums_the_drag_between_behaviour_updates, demo_teardown),
      cmocka_unit_test_teardown(test_exact_and_force_do_not_sum, demo_teardown),
      cmocka_unit_test_teardown(test_gomperts_form_holds_herds_on_steep_terrain, demo_teardown),
  };
  return fb_run_tests(tests);
}
