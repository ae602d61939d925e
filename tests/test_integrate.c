// test_integrate.c — one Euler step: slope correction, limits, bounds, energy, collisions.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "integrate.h"

#define EPS 1e-12
#define WORLD 64.0
#define SAMPLES 64  // one sample per world unit

// cmocka 1.1 compares only floats.
#include "test_util.h"

// ---- fixtures ----------------------------------------------------------------------------

static float g_heights[SAMPLES * SAMPLES];

// Flat ground filled by hand (a plain struct; width 0 means flat).
static fbTerrain flat_terrain(void)
{
  return (fbTerrain){.world_w = WORLD, .world_h = WORLD, .cell_w = WORLD, .cell_h = WORLD};
}

// The plane h = k x sampled at pixel centres. k = 0.75 keeps every height a multiple of 1/8,
// exact in a float, and sqrt(k^2 + 1) = 1.25, so the slope factor is exactly 0.8.
static fbTerrain plane_terrain(double k)
{
  for (int j = 0; j < SAMPLES; j++) {
    for (int i = 0; i < SAMPLES; i++) {
      g_heights[j * SAMPLES + i] = (float)(k * (i + 0.5));
    }
  }
  return (fbTerrain){.width = SAMPLES, .height = SAMPLES, .h = g_heights, .world_w = WORLD,
                     .world_h = WORLD, .height_scale = 1.0, .cell_w = 1.0, .cell_h = 1.0};
}

static fbMotionLimits limits(void)
{
  return (fbMotionLimits){.max_speed = 10.0, .min_speed = 0.0, .max_accel = 100.0,
                          .max_turn = FB_PI, .body_radius = 0.5, .half_accel_term = false,
                          .slope_correction = true};
}

static fbIntegrateEnv env_on(const fbTerrain *t, double dt, fbBounds bounds)
{
  return fbIntegrate_Env(t, NULL, dt, WORLD, WORLD, bounds);
}

static fbBody body(double px, double py, double vx, double vy)
{
  fbVec2 v = fbV(vx, vy);
  double s = fbV_Length(v);
  fbVec2 heading = s > 0.0 ? fbV_Scale(v, 1.0 / s) : fbV(1.0, 0.0);
  return (fbBody){.p = fbV(px, py), .v = v, .heading = heading, .energy = 0.0};
}

static const fbVec2 ZERO = {0.0, 0.0};

// ---- slope correction (Gompert eq. 10) ---------------------------------------------------

static void uphill_moves_by_v_dt_over_sqrt(void **state)
{
  (void)state;
  fbTerrain t = plane_terrain(0.75);
  fbIntegrateEnv env = env_on(&t, 0.1, FB_BOUNDS_WRAP);
  fbMotionLimits lim = limits();
  fbBody b = body(20.5, 20.5, 2.0, 0.0);
  fbIntegrate_Body(&b, ZERO, ZERO, ZERO, &lim, &env);
  assert_near(b.p.x, 20.5 + 2.0 * 0.1 / 1.25, EPS);
  assert_near(b.p.y, 20.5, 0.0);
  assert_near(b.v.x, 2.0, 0.0);  // the correction scales the move, not the velocity
  // Run 0.16, rise 0.12: the 3D path is |v| dt = 0.2 exactly, which is the point of eq. 10.
  assert_near(b.energy, 0.2 * fbEnergy_PerDistance(0.75), EPS);
}

static void downhill_is_corrected_alike(void **state)
{
  (void)state;
  fbTerrain t = plane_terrain(0.75);
  fbIntegrateEnv env = env_on(&t, 0.1, FB_BOUNDS_WRAP);
  fbMotionLimits lim = limits();
  fbBody b = body(20.5, 20.5, -2.0, 0.0);
  fbIntegrate_Body(&b, ZERO, ZERO, ZERO, &lim, &env);
  assert_near(b.p.x, 20.5 - 0.16, EPS);
  assert_near(b.energy, 0.2 * fbEnergy_PerDistance(-0.75), EPS);
}

static void along_contour_not_corrected(void **state)
{
  (void)state;
  fbTerrain t = plane_terrain(0.75);
  fbIntegrateEnv env = env_on(&t, 0.1, FB_BOUNDS_WRAP);
  fbMotionLimits lim = limits();
  fbBody b = body(20.5, 20.5, 0.0, 2.0);
  fbIntegrate_Body(&b, ZERO, ZERO, ZERO, &lim, &env);
  assert_near(b.p.x, 20.5, 0.0);
  assert_near(b.p.y, 20.5 + 0.2, EPS);
  assert_near(b.energy, 0.2 * fbEnergy_PerDistance(0.0), EPS);
}

static void correction_off_moves_full_step(void **state)
{
  (void)state;
  fbTerrain t = plane_terrain(0.75);
  fbIntegrateEnv env = env_on(&t, 0.1, FB_BOUNDS_WRAP);
  fbMotionLimits lim = limits();
  lim.slope_correction = false;
  fbBody b = body(20.5, 20.5, 2.0, 0.0);
  fbIntegrate_Body(&b, ZERO, ZERO, ZERO, &lim, &env);
  assert_near(b.p.x, 20.7, EPS);
}

// ---- Euler step and acceleration (Gompert eq. 1-2) ---------------------------------------

static void half_accel_term_on_and_off(void **state)
{
  (void)state;
  fbTerrain t = flat_terrain();
  fbIntegrateEnv env = env_on(&t, 0.5, FB_BOUNDS_WRAP);
  fbMotionLimits lim = limits();
  fbBody b = body(10.0, 10.0, 1.0, 0.0);
  fbIntegrate_Body(&b, fbV(2.0, 0.0), ZERO, ZERO, &lim, &env);
  assert_near(b.p.x, 10.5, EPS);  // p += v dt, from the old velocity
  assert_near(b.v.x, 2.0, EPS);   // v += a dt
  lim.half_accel_term = true;
  b = body(10.0, 10.0, 1.0, 0.0);
  fbIntegrate_Body(&b, fbV(2.0, 0.0), ZERO, ZERO, &lim, &env);
  assert_near(b.p.x, 10.75, EPS);  // + 1/2 * 2 * 0.25
  assert_near(b.v.x, 2.0, EPS);
}

// Steering is truncated to max_accel; a force comes on top of it untruncated (Gompert's drag).
static void steer_truncated_force_added(void **state)
{
  (void)state;
  fbTerrain t = flat_terrain();
  fbIntegrateEnv env = env_on(&t, 0.1, FB_BOUNDS_WRAP);
  fbMotionLimits lim = limits();
  lim.max_accel = 5.0;
  fbBody b = body(10.0, 10.0, 0.0, 0.0);
  fbIntegrate_Body(&b, fbV(30.0, 40.0), fbV(0.0, 0.0), ZERO, &lim, &env);  // |(30, 40)| = 50 -> 5
  assert_near(b.v.x, 0.3, EPS);
  assert_near(b.v.y, 0.4, EPS);
  assert_near(b.heading.x, 0.6, EPS);
  assert_near(b.heading.y, 0.8, EPS);
  b = body(10.0, 10.0, 0.0, 0.0);
  fbIntegrate_Body(&b, fbV(30.0, 40.0), fbV(-20.0, 0.0), ZERO, &lim, &env);  // (3, 4) + (-20, 0)
  assert_near(b.v.x, -1.7, EPS);
  assert_near(b.v.y, 0.4, EPS);
}

// ---- speed and turn limits ---------------------------------------------------------------

static void max_speed_clamps(void **state)
{
  (void)state;
  fbTerrain t = flat_terrain();
  fbIntegrateEnv env = env_on(&t, 0.1, FB_BOUNDS_WRAP);
  fbMotionLimits lim = limits();
  fbBody b = body(10.0, 10.0, 6.0, 8.0);
  fbIntegrate_Body(&b, fbV(60.0, 80.0), ZERO, ZERO, &lim, &env);  // would be (12, 16)
  assert_near(b.v.x, 6.0, EPS);
  assert_near(b.v.y, 8.0, EPS);
}

static void min_speed_lifts_along_velocity(void **state)
{
  (void)state;
  fbTerrain t = flat_terrain();
  fbIntegrateEnv env = env_on(&t, 0.1, FB_BOUNDS_WRAP);
  fbMotionLimits lim = limits();
  lim.min_speed = 1.0;
  fbBody b = body(10.0, 10.0, 0.0, 0.0);
  b.heading = fbV(1.0, 0.0);
  fbIntegrate_Body(&b, fbV(0.3, -0.4), ZERO, ZERO, &lim, &env);  // v = (0.03, -0.04), too slow
  assert_near(b.v.x, 0.6, EPS);
  assert_near(b.v.y, -0.8, EPS);
}

static void min_speed_lifts_stopped_body_along_heading(void **state)
{
  (void)state;
  fbTerrain t = flat_terrain();
  fbIntegrateEnv env = env_on(&t, 0.1, FB_BOUNDS_WRAP);
  fbMotionLimits lim = limits();
  lim.min_speed = 1.5;
  fbBody b = body(10.0, 10.0, 0.0, 0.0);
  b.heading = fbV(0.0, -1.0);
  fbIntegrate_Body(&b, ZERO, ZERO, ZERO, &lim, &env);
  assert_near(b.p.y, 10.0, 0.0);  // moved by the old (zero) velocity
  assert_near(b.v.x, 0.0, EPS);
  assert_near(b.v.y, -1.5, EPS);
}

static void stopping_keeps_heading(void **state)
{
  (void)state;
  fbTerrain t = flat_terrain();
  fbIntegrateEnv env = env_on(&t, 0.25, FB_BOUNDS_WRAP);
  fbMotionLimits lim = limits();
  fbBody b = body(10.0, 10.0, 0.0, 1.0);
  fbIntegrate_Body(&b, fbV(0.0, -4.0), ZERO, ZERO, &lim, &env);  // v = 1 - 4 * 0.25 = 0
  assert_near(fbV_Length(b.v), 0.0, 0.0);
  assert_near(b.heading.x, 0.0, 0.0);
  assert_near(b.heading.y, 1.0, 0.0);
}

static void reversal_turns_exactly_max_turn(void **state)
{
  (void)state;
  fbTerrain t = flat_terrain();
  fbIntegrateEnv env = env_on(&t, 0.1, FB_BOUNDS_WRAP);
  fbMotionLimits lim = limits();
  lim.max_turn = 0.3;
  fbBody b = body(10.0, 10.0, 2.0, 0.0);
  fbIntegrate_Body(&b, fbV(-40.0, 0.0), ZERO, ZERO, &lim, &env);  // asks for (-2, 0): 180 degrees
  assert_near(fabs(atan2(b.v.y, b.v.x)), 0.3, EPS);
  assert_near(fbV_Length(b.v), 2.0, EPS);
  assert_near(fabs(atan2(b.heading.y, b.heading.x)), 0.3, EPS);
}

static void turn_limit_keeps_side_and_small_turns(void **state)
{
  (void)state;
  fbTerrain t = flat_terrain();
  fbIntegrateEnv env = env_on(&t, 0.1, FB_BOUNDS_WRAP);
  fbMotionLimits lim = limits();
  lim.max_turn = 0.2;
  fbBody b = body(10.0, 10.0, 1.0, 0.0);
  fbIntegrate_Body(&b, fbV(0.0, -5.0), ZERO, ZERO, &lim, &env);  // asks for (1, -0.5): -0.46 rad
  assert_near(atan2(b.v.y, b.v.x), -0.2, EPS);
  assert_near(fbV_Length(b.v), sqrt(1.25), EPS);
  lim.max_turn = 0.5;  // now the same request is within the limit and passes unchanged
  b = body(10.0, 10.0, 1.0, 0.0);
  fbIntegrate_Body(&b, fbV(0.0, -5.0), ZERO, ZERO, &lim, &env);
  assert_near(b.v.x, 1.0, EPS);
  assert_near(b.v.y, -0.5, EPS);
}

// ---- bounds ------------------------------------------------------------------------------

static void wrap_both_edges(void **state)
{
  (void)state;
  fbTerrain t = flat_terrain();
  fbIntegrateEnv env = env_on(&t, 0.25, FB_BOUNDS_WRAP);
  fbMotionLimits lim = limits();
  fbBody b = body(63.5, 0.125, 4.0, -1.0);  // to (64.5, -0.125)
  fbIntegrate_Body(&b, ZERO, ZERO, ZERO, &lim, &env);
  assert_near(b.p.x, 0.5, EPS);
  assert_near(b.p.y, 63.875, EPS);
  // The jump across the edges is not walked: only the step's own length counts.
  assert_near(b.energy, sqrt(1.0 + 0.0625) * fbEnergy_PerDistance(0.0), EPS);
  b = body(0.25, 63.75, -3.0, 1.0);  // to (-0.5, 64): exactly w wraps to 0
  fbIntegrate_Body(&b, ZERO, ZERO, ZERO, &lim, &env);
  assert_near(b.p.x, 63.5, EPS);
  assert_near(b.p.y, 0.0, 0.0);
}

static void wrap_far_and_tiny_negative(void **state)
{
  (void)state;
  fbTerrain t = flat_terrain();
  fbIntegrateEnv env = env_on(&t, 1.0, FB_BOUNDS_WRAP);
  fbMotionLimits lim = limits();
  lim.max_speed = 1000.0;
  fbBody b = body(1.0, 1.0, -130.0, 200.0);  // to (-129, 201): several widths away
  fbIntegrate_Body(&b, ZERO, ZERO, ZERO, &lim, &env);
  assert_near(b.p.x, 63.0, EPS);
  assert_near(b.p.y, 9.0, EPS);
  b = body(0.0, 5.0, -1e-18, 0.0);  // -1e-18 + 64 rounds to 64, which must not survive
  fbIntegrate_Body(&b, ZERO, ZERO, ZERO, &lim, &env);
  assert_true(b.p.x >= 0.0 && b.p.x < WORLD);
}

static void clamp_stops_at_walls(void **state)
{
  (void)state;
  fbTerrain t = flat_terrain();
  fbIntegrateEnv env = env_on(&t, 0.1, FB_BOUNDS_CLAMP);
  fbMotionLimits lim = limits();
  fbBody b = body(63.9, 32.0, 2.0, 1.0);  // x would reach 64.1
  fbIntegrate_Body(&b, ZERO, ZERO, ZERO, &lim, &env);
  assert_near(b.p.x, WORLD, 0.0);
  assert_near(b.p.y, 32.1, EPS);
  assert_near(b.v.x, 0.0, 0.0);  // outward component stopped
  assert_near(b.v.y, 1.0, EPS);  // along the wall kept
  assert_near(b.energy, hypot(0.1, 0.1) * fbEnergy_PerDistance(0.0), EPS);
  b = body(0.05, 0.05, -1.0, -1.0);
  fbIntegrate_Body(&b, ZERO, ZERO, ZERO, &lim, &env);
  assert_near(b.p.x, 0.0, 0.0);
  assert_near(b.p.y, 0.0, 0.0);
  assert_near(fbV_Length(b.v), 0.0, 0.0);
  b = body(0.05, 10.0, 1.0, 0.0);  // moving inward near a wall: untouched
  fbIntegrate_Body(&b, ZERO, ZERO, ZERO, &lim, &env);
  assert_near(b.p.x, 0.15, EPS);
  assert_near(b.v.x, 1.0, 0.0);
}

// ---- energy (Gompert 5.2.2, Figure 7) ----------------------------------------------------

static void flat_distance_costs_d_times_e0(void **state)
{
  (void)state;
  fbTerrain t = flat_terrain();
  fbIntegrateEnv env = env_on(&t, 0.1, FB_BOUNDS_WRAP);
  fbMotionLimits lim = limits();
  fbBody b = body(10.0, 10.0, 3.0, 4.0);
  for (int i = 0; i < 10; i++) {
    fbIntegrate_Body(&b, ZERO, ZERO, ZERO, &lim, &env);
  }
  assert_near(b.energy, 5.0 * fbEnergy_PerDistance(0.0), 1e-12);
}

static void energy_curve_has_figure7_shape(void **state)
{
  (void)state;
  assert_near(fbEnergy_PerDistance(-0.1), 1.0, 0.0);
  double best_s = 0.0, best_e = INFINITY, prev = INFINITY;
  for (int i = -5000; i <= 5000; i++) {  // s in [-5, 5] by 0.001
    double s = i * 0.001, e = fbEnergy_PerDistance(s);
    if (e < best_e) {
      best_e = e;
      best_s = s;
    }
    if (s < -0.1 - 1e-9) {
      assert_true(e < prev);  // strictly falling towards the minimum
    } else if (s > -0.1 + 1e-9) {
      assert_true(e > prev);  // strictly rising after it
    }
    prev = e;
  }
  assert_near(best_s, -0.1, 1e-9);
  assert_true(fbEnergy_PerDistance(0.0) > 1.0);
  double up = fbEnergy_PerDistance(1e9), down = fbEnergy_PerDistance(-1e9);
  assert_true(isfinite(up) && up > fbEnergy_PerDistance(5.0));
  assert_near(down / up, 0.2, 1e-6);
  assert_near(fbEnergy_PerDistance(INFINITY), up, 1e-6);
  assert_near(fbEnergy_PerDistance(-INFINITY), down, 1e-6);
  assert_true(fbEnergy_PerDistance(0.5) > fbEnergy_PerDistance(-0.5));  // climbing costs more
}

// ---- collisions (Gompert 8.1) ------------------------------------------------------------

// A wall 0.1 thick at x in [10, 10.1]; a body at 100 units/s with dt 0.1 would step from x = 5
// to x = 15, clean over it, if only end positions were tested.
static void fast_body_does_not_tunnel(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  const fbVec2 wall[] = {{10.0, 5.0}, {10.1, 5.0}, {10.1, 60.0}, {10.0, 60.0}};
  char err[128];
  assert_true(fbObstacles_AddPolygon(&o, wall, 4, err, sizeof err) >= 0);
  fbTerrain t = flat_terrain();
  fbIntegrateEnv env = env_on(&t, 0.1, FB_BOUNDS_WRAP);
  env.obstacles = &o;
  fbMotionLimits lim = limits();
  lim.max_speed = 200.0;
  fbBody b = body(5.0, 32.0, 100.0, 50.0);
  for (int i = 0; i < 5; i++) {
    fbIntegrate_Body(&b, ZERO, ZERO, ZERO, &lim, &env);
    assert_true(b.p.x <= 10.0 - lim.body_radius + 1e-6);
  }
  assert_near(b.v.x, 0.0, 1e-9);  // the component into the wall is gone ...
  assert_near(b.v.y, 50.0, 1e-9); // ... the slide along it kept
  assert_true(b.p.y > 32.0);
  fbObstacles_Free(&o);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(uphill_moves_by_v_dt_over_sqrt),
      cmocka_unit_test(downhill_is_corrected_alike),
      cmocka_unit_test(along_contour_not_corrected),
      cmocka_unit_test(correction_off_moves_full_step),
      cmocka_unit_test(half_accel_term_on_and_off),
      cmocka_unit_test(steer_truncated_force_added),
      cmocka_unit_test(max_speed_clamps),
      cmocka_unit_test(min_speed_lifts_along_velocity),
      cmocka_unit_test(min_speed_lifts_stopped_body_along_heading),
      cmocka_unit_test(stopping_keeps_heading),
      cmocka_unit_test(reversal_turns_exactly_max_turn),
      cmocka_unit_test(turn_limit_keeps_side_and_small_turns),
      cmocka_unit_test(wrap_both_edges),
      cmocka_unit_test(wrap_far_and_tiny_negative),
      cmocka_unit_test(clamp_stops_at_walls),
      cmocka_unit_test(flat_distance_costs_d_times_e0),
      cmocka_unit_test(energy_curve_has_figure7_shape),
      cmocka_unit_test(fast_body_does_not_tunnel),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
