// test_table2.c — Gompert's Table 2 as presets: ghosts, herds trapped by obstacles, herds overwhelmed by terrain, swarms of insects; and the climb against the drag factor K.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "telemetry.h"
#include "test_util.h"
#include "demo_util.h"

static void run_for(double seconds)
{
  int steps = (int)lround(seconds / sim.world.dt);
  for (int k = 0; k < steps; ++k) {
    step();
  }
}

static double mean_height(void)
{
  const fbAgents *a = &sim.world.agents;
  double sum = 0;
  for (int i = 0; i < a->count; ++i) {
    sum += fbTerrain_Height(&sim.world.terrain, a->px[i], a->py[i]);
  }
  return sum / a->count;
}

static double centre_x(void)
{
  const fbAgents *a = &sim.world.agents;
  double sum = 0;
  for (int i = 0; i < a->count; ++i) {
    sum += a->px[i];
  }
  return sum / a->count;
}

// The herd's mean height on the ramp (the top is 72 up) after `seconds`, with the preset's --set
// values and these; one thread (a 30-animal herd: a pool would only add its waits to each step).
static double climbed_after(double seconds, const char *const *sets, int count)
{
  load_threads("scripts/table2_overwhelmed.lua", sets, count, 1);
  run_for(seconds);
  double h = mean_height();
  unload();
  return h;
}

// Our exact drag (the preset runs Gompert's): behaviour every step, at drag factor K and step dt.
static double climbed_exact(double seconds, const char *k_uphill, const char *dt)
{
  const char *sets[] = {"herd.drag=exact", "herd.update_every=1", k_uphill, dt};
  return climbed_after(seconds, sets, 4);
}

// The smallest distance between two bodies of the herd.
static double closest_pair(void)
{
  const fbAgents *a = &sim.world.agents;
  double best = INFINITY;
  for (int i = 0; i < a->count; ++i) {
    for (int j = i + 1; j < a->count; ++j) {
      best = fmin(best, hypot(a->px[i] - a->px[j], a->py[i] - a->py[j]));
    }
  }
  return best;
}

// Table 2, ghost-like: blind animals walk to one goal; without collisions they stack on it, with
// bodies they pack round it, never closer than about a body length (2).
static void test_ghosts_overlap_only_with_collisions_off(void **state)
{
  (void)state;
  load("scripts/table2_ghosts.lua");
  run_for(60);
  double ghosts = closest_pair();
  unload();
  load_with("scripts/table2_ghosts.lua", "herd.collide=true");
  run_for(60);
  double bodies = closest_pair();
  unload();
  print_message("closest pair after 60 s: %.3g with collisions off, %.3f with them on (body length 2)\n", ghosts,
                bodies);
  assert_true(ghosts < 0.01);
  assert_true(bodies > 1.4);  // one push pass a step: seekers pressing inward keep some overlap
}

// Larger K climbs slower, with no cap: K = 55 and K = 100 differ (the old cap made them equal).
static void test_larger_drag_climbs_slower(void **state)
{
  (void)state;
  const char *ks[] = {"herd.terrain_drag.uphill=0", "herd.terrain_drag.uphill=10", "herd.terrain_drag.uphill=30",
                      "herd.terrain_drag.uphill=55", "herd.terrain_drag.uphill=100",
                      "herd.terrain_drag.uphill=200"};
  double last = INFINITY;
  for (size_t k = 0; k < sizeof ks / sizeof ks[0]; ++k) {
    double h = climbed_exact(60, ks[k], "world.dt=0.05");
    print_message("%s: mean height after 60 s %.1f of 72\n", ks[k], h);
    assert_true(h < last);
    last = h;
  }
}

/*
 * Table 2, overwhelmed by terrain, as Gompert's code has it: the preset runs his explicit drag,
 * summed between behaviour updates 10 times a second (drag = "gompert", update_every = 10 at dt
 * 0.01), and at K = 200 the herd stays at the foot of the ramp for 300 s (600 s in the docs), and
 * so it does at dt 0.02 (update_every 5: still 10 updates a second); at K = 10 it climbs. Our exact drag lets
 * it creep up at max_accel / (K |g|) along the slope (the same at any dt): 17 units in 300 s,
 * which is why the preset names his form.
 */
static void test_overwhelmed_herds_do_not_climb(void **state)
{
  (void)state;
  double held = climbed_after(300, NULL, 0);
  const char *coarse[] = {"world.dt=0.02", "herd.update_every=5"};
  double held_coarse = climbed_after(300, coarse, 2);
  const char *easy_sets[] = {"herd.terrain_drag.uphill=10"};
  double easy = climbed_after(60, easy_sets, 1);
  double creep = climbed_exact(300, "herd.terrain_drag.uphill=200", "world.dt=0.05");
  double h05 = climbed_exact(60, "herd.terrain_drag.uphill=200", "world.dt=0.05");
  double h0125 = climbed_exact(60, "herd.terrain_drag.uphill=200", "world.dt=0.0125");
  print_message("his form, K = 200: %.3f up after 300 s (%.3f at dt 0.02); K = 10: %.1f after 60 s\n", held,
                held_coarse, easy);
  print_message("ours, K = 200: %.1f after 300 s; after 60 s %.2f at dt 0.05, %.2f at dt 0.0125\n", creep, h05, h0125);
  assert_true(held < 1 && held_coarse < 1);
  assert_true(easy > 5);
  assert_true(creep > 10);
  assert_true(fabs(h05 - h0125) < 0.5);  // ours: the same at any dt
}

// Table 2, trapped by obstacles, as Gompert has it: the trap is perceptual. The row of trees has
// gaps a body passes, but with his comfort space and a long obstacle range the herd sees a solid
// wall and mills before it (few get through in 60 s); with the range below two padded radii it
// sees the gaps and all go through within 45 s.
static int beyond_wall(void)
{
  int beyond = 0;
  for (int i = 0; i < sim.world.agents.count; ++i) {
    beyond += sim.world.agents.px[i] > 150;
  }
  return beyond;
}

static void test_trapped_herds_make_no_progress(void **state)
{
  (void)state;
  load("scripts/table2_trapped.lua");
  int n = sim.world.agents.count;
  run_for(60);
  int trapped_through = beyond_wall();
  double at_60 = centre_x();
  unload();
  load_with("scripts/table2_trapped.lua", "herd.avoid.range=3.5");
  run_for(45);
  int free_through = beyond_wall();
  print_message("range 30: %d of %d beyond the wall after 60 s (herd centre x %.1f); range 3.5: %d after 45 s\n",
                trapped_through, n, at_60, free_through);
  assert_true(trapped_through <= n / 4);
  assert_true(at_60 < 170);
  assert_int_equal(free_through, n);
  unload();
}

// Table 2, swarm of insects: seeing each other only to centre, they fly at full speed with no
// common heading.
static void test_insects_keep_their_speed_with_low_polarisation(void **state)
{
  (void)state;
  load("scripts/table2_insects.lua");
  double polarisation = 0, speed = 0;
  int samples = 0;
  for (int k = 1; k <= 1200; ++k) {
    step();
    if (k > 400 && k % 20 == 0) {
      fbMeasures m;
      fbTelemetry_Measure(&sim, &m);
      polarisation += m.polarisation;
      speed += m.mean_speed;
      samples++;
    }
  }
  polarisation /= samples;
  speed /= samples;
  print_message("insects over 20..60 s: mean speed %.2f (cruise 7, min 5, max 10), polarisation %.3f\n", speed,
                polarisation);
  assert_true(speed > 7);  // above cruise: min_speed alone would only guarantee 5
  assert_true(polarisation < 0.2);
  unload();
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_ghosts_overlap_only_with_collisions_off, demo_teardown),
      cmocka_unit_test_teardown(test_larger_drag_climbs_slower, demo_teardown),
      cmocka_unit_test_teardown(test_overwhelmed_herds_do_not_climb, demo_teardown),
      cmocka_unit_test_teardown(test_trapped_herds_make_no_progress, demo_teardown),
      cmocka_unit_test_teardown(test_insects_keep_their_speed_with_low_polarisation, demo_teardown),
  };
  return fb_run_tests(tests);
}
