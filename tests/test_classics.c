// test_classics.c — the results collective motion is built on, reproduced: Vicsek et al. 1995's order against noise, NetLogo's Flocking, Couzin et al. 2002's phases and their hysteresis.
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

// scripts/couzin.lua with 50 fish (the reduced version of docs/experiments.md's 100), Delta r_o = dro
// and Delta r_a = 14, on seed `seed`, run for `steps` steps.
static void couzin_load(double dro, uint64_t seed, int steps)
{
  char set[64];
  snprintf(set, sizeof set, "fish.couzin.orientation=%.17g", dro);
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.headless = true;
  o.seed = seed;
  o.sets[o.set_count++] = "fish.count=50";
  o.sets[o.set_count++] = "fish.couzin.attraction=14";
  o.sets[o.set_count++] = set;
  char err[2048];
  if (!fbSim_Load(&sim, "scripts/couzin.lua", &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  sim_loaded = true;
  for (int k = 0; k < steps; ++k) {
    step();
  }
}

// The group's state now: P and M averaged over the last 1 000 steps (P_avg, M_avg), and its extent,
// the mean distance from its centre (it starts at 3.3, in a disc of radius 5; a group that splits
// or scatters goes on growing).
typedef struct CouzinState {
  double P, M, extent;
} CouzinState;

static CouzinState couzin_state(const char *what, double dro)
{
  CouzinState c = {metric("P_avg"), metric("M_avg"), metric("extent")};
  print_message("Couzin, %s at Delta r_o = %g: P %.3f, M %.3f, extent %.2f\n", what, dro, c.P, c.M, c.extent);
  return c;
}

// Narrows or widens the orientation zone of the running group, as a hook's fb.set_param would, and
// runs it `steps` more steps.
static void couzin_continue(double dro, int steps)
{
  char msg[256];
  int rule = fbSim_FindRule(&sim, 0, "couzin");
  assert_true(rule >= 0);
  if (!fbSim_SetParam(&sim, 0, rule, "orientation", dro, msg, sizeof msg)) {
    fail_msg("%s", msg);
  }
  for (int k = 0; k < steps; ++k) {
    step();
  }
}

// Couzin's phases as the orientation zone widens (his Figure 2, in the plane), from a disc of random
// headings: a swarm at Delta r_o = 0 (neither polarised nor turning), a mill at 2 (turning about its
// centre, not polarised), highly parallel at 15; and each holds together.
// Then the hysteresis (his Figure 4): at Delta r_o = 9 the mill, widened to it, goes on milling,
// while the parallel group, narrowed to it, stays parallel: the same rule, two behaviours, depending
// on where the group has been.
static void test_couzin_phases_and_hysteresis(void **state)
{
  (void)state;
  couzin_load(0, 1, 1500);
  CouzinState swarm = couzin_state("swarm", 0);
  unload();
  assert_true(swarm.P < 0.3 && swarm.M < 0.35);
  assert_true(swarm.extent < 10);

  couzin_load(2, 1, 1500);
  CouzinState mill = couzin_state("mill", 2);
  assert_true(mill.M > 0.6 && mill.P < 0.3);
  assert_true(mill.extent < 10);
  couzin_continue(9, 1000);
  CouzinState mill_wider = couzin_state("the mill widened", 9);
  unload();
  assert_true(mill_wider.M > 0.6 && mill_wider.P < 0.4);
  assert_true(mill_wider.extent < 12);

  couzin_load(15, 1, 1500);
  CouzinState parallel = couzin_state("parallel", 15);
  assert_true(parallel.P > 0.95 && parallel.M < 0.2);
  assert_true(parallel.extent < 10);
  couzin_continue(9, 1000);
  CouzinState parallel_narrower = couzin_state("the parallel group narrowed", 9);
  unload();
  assert_true(parallel_narrower.P > 0.8 && parallel_narrower.M < 0.2);
  assert_true(parallel_narrower.extent < 10);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_vicsek_order_falls_with_noise, demo_teardown),
      cmocka_unit_test_teardown(test_vicsek_particles_keep_their_speed, demo_teardown),
      cmocka_unit_test_teardown(test_netlogo_flocking_polarises, demo_teardown),
      cmocka_unit_test_teardown(test_couzin_phases_and_hysteresis, demo_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
