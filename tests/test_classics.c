// test_classics.c — the results collective motion is built on, reproduced: Vicsek et al. 1995's order against noise, NetLogo's Flocking.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "demo_util.h"
#include "test_util.h"

// scripts/vicsek.lua with N = 100 at density 4 (L = 5) and noise eta; `order` (v_a averaged over
// the second half) after `steps` steps.
static double vicsek_order(double eta, int steps)
{
  char set[64];
  snprintf(set, sizeof set, "particle.vicsek.eta=%.17g", eta);
  const char *sets[] = {"particle.count=100", "world.width=5", "world.height=5", set};
  load_sets("scripts/vicsek.lua", sets, 4);
  for (int k = 0; k < steps; ++k) {
    step();
  }
  double order = metric("order");
  unload();
  return order;
}

// Vicsek's Figure 2a in small: near 1 at low noise, falling as the noise grows, and near 1/sqrt(N)
// (0.1 for 100) at eta = 2 pi, where the heading is replaced by a uniformly random one.
static void test_vicsek_order_falls_with_noise(void **state)
{
  (void)state;
  const double etas[] = {0.3, 2.0, 4.0, 6.2832};
  double order[4];
  for (int k = 0; k < 4; ++k) {
    order[k] = vicsek_order(etas[k], 2000);
  }
  print_message("N = 100: v_a %.3f at eta 0.3, %.3f at 2, %.3f at 4, %.3f at 2 pi\n", order[0], order[1], order[2],
                order[3]);
  assert_true(order[0] > 0.95);
  assert_true(order[1] < order[0] && order[2] < order[1] && order[3] < order[2]);
  assert_true(order[3] < 0.25);
}

// The rule sets the velocity: every particle keeps exactly the speed v after any step.
static void test_vicsek_particles_keep_their_speed(void **state)
{
  (void)state;
  load("scripts/vicsek.lua");
  for (int k = 0; k < 20; ++k) {
    step();
  }
  const fbAgents *a = &sim.world.agents;
  for (int i = 0; i < a->count; ++i) {
    assert_float_equal(hypot(a->vx[i], a->vy[i]), 0.03, 1e-12);
  }
  unload();
}

// NetLogo's Flocking model with its defaults: from random headings (polarisation near 0) the
// 300 birds come to fly nearly as one within 500 ticks.
static void test_netlogo_flocking_polarises(void **state)
{
  (void)state;
  load("scripts/netlogo_flocking.lua");
  step();
  double start = polarisation();
  for (int k = 1; k < 500; ++k) {
    step();
  }
  double later = polarisation();
  print_message("NetLogo Flocking: polarisation %.3f after 1 tick, %.3f after 500\n", start, later);
  assert_true(start < 0.2);
  assert_true(later > 0.8);
  unload();
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_vicsek_order_falls_with_noise, demo_teardown),
      cmocka_unit_test_teardown(test_vicsek_particles_keep_their_speed, demo_teardown),
      cmocka_unit_test_teardown(test_netlogo_flocking_polarises, demo_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
