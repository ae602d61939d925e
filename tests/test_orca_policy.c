// test_orca_policy.c — ORCA's policy options as a user sees them: layers, priority, standing aside, patience (tests/data/orca_policy.lua).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "demo_util.h"
#include "test_util.h"

#define SCENE "tests/data/orca_policy.lua"
#define STEPS 700  // 70 s at dt = 0.1: every walker has crossed its band and stood at its goal a while

// What one species' agents did over a run: the largest distance from the line of their band's
// centre, where they are at the end, how far the farthest is from its goal then.
typedef struct Track {
  double deviation;  // max |y - band centre| over the agents and the run
  double farthest;   // at the end: the largest distance of an agent from its goal
  double aside;      // max distance of an agent from its start (for one that stands)
} Track;

static Track tracks[FB_MAX_SPECIES];
static double start_x[64], start_y[64];
static const double CENTRE[] = {20, 20, 60, 60, 100, 100, 140, 140};  // the bands, in species order

static void run(const char *const *sets, int count, int steps)
{
  load_threads(SCENE, sets, count, 1);
  const fbAgents *a = &sim.world.agents;
  memset(tracks, 0, sizeof tracks);
  for (int i = 0; i < a->count; ++i) {
    start_x[a->id[i]] = a->px[i];
    start_y[a->id[i]] = a->py[i];
  }
  for (int k = 0; k < steps; ++k) {
    step();
    for (int i = 0; i < a->count; ++i) {
      Track *t = &tracks[a->species[i]];
      t->deviation = fmax(t->deviation, fabs(a->py[i] - CENTRE[a->species[i]]));
      t->aside = fmax(t->aside, hypot(a->px[i] - start_x[a->id[i]], a->py[i] - start_y[a->id[i]]));
    }
  }
  for (int i = 0; i < a->count; ++i) {
    // seek_antipode's goal: the start reflected through (50, band centre)
    double gx = 100 - start_x[a->id[i]], gy = 2 * CENTRE[a->species[i]] - start_y[a->id[i]];
    Track *t = &tracks[a->species[i]];
    t->farthest = fmax(t->farthest, hypot(a->px[i] - gx, a->py[i] - gy));
  }
}

static int kind(const char *name) { return fbWorld_FindSpecies(&sim.world, name); }

// Two files on different layers walk through each other on one line; on one layer they swerve.
static void test_layers_pass_through(void **state)
{
  (void)state;
  run(NULL, 0, STEPS);
  double apart = tracks[kind("east")].deviation, farthest = tracks[kind("west")].farthest;
  unload();
  const char *same[] = {"west.orca.layers=1", "west.orca.mask=1"};
  run(same, 2, STEPS);
  double together = tracks[kind("east")].deviation;
  unload();
  print_message("layers: deviation %.4f on two layers, %.4f on one; west's farthest from goal %.3f\n", apart, together,
                farthest);
  assert_true(apart < 1e-9);
  assert_true(together > 0.3);
  assert_true(farthest < 1.0);
}

// The walker of priority 1 keeps its line; the file of priority 0 makes way. With equal priority
// it swerves as well.
static void test_priority_keeps_its_line(void **state)
{
  (void)state;
  run(NULL, 0, STEPS);
  double vip = tracks[kind("vip")].deviation, crowd = tracks[kind("crowd")].deviation;
  unload();
  run((const char *[]){"vip.orca.priority=0"}, 1, STEPS);
  double equal = tracks[kind("vip")].deviation;
  unload();
  print_message("priority: vip deviation %.4f (equal priority: %.4f), crowd %.4f\n", vip, equal, crowd);
  assert_true(vip < 0.01);
  assert_true(crowd > 0.5);
  assert_true(equal > 0.1);
}

// The guard at its goal steps aside for the walker and returns; the walker swerves less than for
// a guard that does not stand aside.
static void test_standing_agent_steps_aside(void **state)
{
  (void)state;
  run(NULL, 0, STEPS);
  Track guard = tracks[kind("guard")];
  double walker = tracks[kind("walker")].deviation;
  unload();
  run((const char *[]){"guard.orca.standing_speed=0"}, 1, STEPS);
  double plain = tracks[kind("walker")].deviation;
  unload();
  print_message("standing: guard moved %.3f aside, %.4f from its post at the end; walker deviation %.4f (%.4f "
                "when the guard does not stand aside)\n", guard.aside, guard.farthest, walker, plain);
  assert_true(guard.aside > 0.5);
  assert_true(guard.farthest < 0.1);
  assert_true(walker < 0.5 * plain);
}

// Two walkers meet head on in a corridor one wide: without patience both push and neither gets
// through; with it one waits, is pushed back out as it stands, and both arrive.
static void test_patience_ends_a_deadlock(void **state)
{
  (void)state;
  run(NULL, 0, 1500);
  double in = tracks[kind("inbound")].farthest, out = tracks[kind("outbound")].farthest;
  unload();
  run((const char *[]){"inbound.orca.patience=0", "outbound.orca.patience=0"}, 2, 1500);
  double in0 = tracks[kind("inbound")].farthest, out0 = tracks[kind("outbound")].farthest;
  unload();
  print_message("patience: farthest from goal after 150 s %.3f, %.3f (without patience: %.3f, %.3f)\n", in, out, in0,
                out0);
  assert_true(in < 1.0 && out < 1.0);
  assert_true(in0 > 10.0 && out0 > 10.0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_layers_pass_through, demo_teardown),
      cmocka_unit_test_teardown(test_priority_keeps_its_line, demo_teardown),
      cmocka_unit_test_teardown(test_standing_agent_steps_aside, demo_teardown),
      cmocka_unit_test_teardown(test_patience_ends_a_deadlock, demo_teardown),
  };
  return fb_run_tests(tests);
}
