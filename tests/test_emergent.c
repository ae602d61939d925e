// test_emergent.c — what a user looks for: a herd splitting round a hill, a flock forming, trees avoided.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "demo_util.h"
#include "telemetry.h"

typedef struct HillCrossing {
  int north, south, over;  // how each agent passed the hill's meridian x = 100
  double mean_max_height;
} HillCrossing;

// Walks the herd of tests/data/hill_split.lua at the round hill (top at (100, 100), 40 high,
// sigma 24) and records, for each agent, on which side it first passed x = 100.
static HillCrossing cross_hill(const char *uphill, const char *downhill, const char *dt, double seconds)
{
  const char *sets[] = {uphill, downhill, dt};
  load_sets("tests/data/hill_split.lua", sets, 3);
  int steps = (int)lround(seconds / sim.world.dt);
  HillCrossing c = {0, 0, 0, 0};
  int n = sim.world.agents.count;
  bool crossed[64] = {false};
  double max_height[64] = {0};
  assert_true(n <= 64);
  for (int k = 0; k < steps; ++k) {
    assert_true(fbSim_Step(&sim));
    for (int i = 0; i < n; ++i) {
      double x = sim.world.agents.px[i], y = sim.world.agents.py[i];
      int a = (int)sim.world.agents.id[i] - 1;  // agents move in storage: follow them by id (1..n)
      max_height[a] = fmax(max_height[a], fbTerrain_Height(&sim.world.terrain, x, y));
      if (!crossed[a] && x > 100) {
        crossed[a] = true;
        c.north += y < 85;    // more than 15 units (0.6 sigma) off the summit line
        c.south += y > 115;
        c.over += y >= 85 && y <= 115;
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    c.mean_max_height += max_height[i] / n;
  }
  return c;
}

// Gompert 5.2.3: with the terrain drag the herd swerves round the hill, splitting to both sides;
// without it (K = 0) the herd walks straight over the top. The same in 75 s at dt 0.05 and 0.025.
static void herd_splits_round_a_hill(const char *dt)
{
  HillCrossing drag = cross_hill("herd.terrain_drag.uphill=30", "herd.terrain_drag.downhill=6", dt, 75);
  int n = sim.world.agents.count;
  unload();
  print_message("%s, K = 30: %d north, %d south, %d over the top; mean highest point %.1f of 40\n", dt, drag.north,
                drag.south, drag.over, drag.mean_max_height);
  assert_true(drag.north >= n / 5);
  assert_true(drag.south >= n / 5);
  assert_true(drag.over <= n / 10);
  HillCrossing none = cross_hill("herd.terrain_drag.uphill=0", "herd.terrain_drag.downhill=0", dt, 75);
  unload();
  print_message("%s, K = 0: %d north, %d south, %d over the top; mean highest point %.1f of 40\n", dt, none.north,
                none.south, none.over, none.mean_max_height);
  assert_true(none.over >= 3 * n / 4);
  assert_true(none.mean_max_height > drag.mean_max_height + 10);
}

static void test_herd_splits_round_a_hill(void **state)
{
  (void)state;
  herd_splits_round_a_hill("world.dt=0.05");
}

static void test_herd_splits_round_a_hill_at_a_smaller_dt(void **state)
{
  (void)state;
  herd_splits_round_a_hill("world.dt=0.025");
}

// The herd over hills gets to its goal: the centre ends near it after 150 s, at either dt, and
// the arrival time the scenario records is in seconds at either dt (it once counted steps of 0.05 s).
static void herd_reaches_goal(const char *dt)
{
  load_with("scripts/herd_hills.lua", dt);
  int steps = (int)lround(150 / sim.world.dt);
  for (int k = 0; k < steps; ++k) {
    assert_true(fbSim_Step(&sim));
  }
  double metrics[FB_MAX_METRICS];  // goal_distance, arrival_time, energy_at_goal
  assert_true(fbSim_Metrics(&sim, metrics));
  print_message("%s: herd centre to goal after 150 s: %.1f, arrived (within 20) at %.1f s\n", dt, metrics[0],
                metrics[1]);
  assert_true(metrics[0] < 30);
  assert_true(metrics[1] > 100 && metrics[1] < 150);
  unload();
}

static void test_herd_reaches_goal(void **state)
{
  (void)state;
  herd_reaches_goal("world.dt=0.05");
  herd_reaches_goal("world.dt=0.025");
}

// Boids that start in random directions line up: polarisation climbs from near 0, and they keep
// their distance (the mean nearest-neighbour distance stays near the separation radius).
// Where one run ends is chaotic: at 75 s the polarisation of single seeds spreads from 0.17 to
// 0.99 (the flock often splits into groups that are each aligned), and a change in the last bit
// of a sine moves a seed anywhere in that spread (seed 1 went from 0.80 to 0.56 when sin and cos
// became fb_math's; over 40 seeds the mean went from 0.65 to 0.62). So the claim is checked on
// the mean of FLOCK_SEEDS seeds, whose spread is a third of one run's.
#define FLOCK_SEEDS 8

static void classic_flock_forms(const char *dt)
{
  double polarisation = 0.0;
  for (int seed = 1; seed <= FLOCK_SEEDS; ++seed) {
    demo_seed = (uint64_t)seed;
    load_with("scripts/classic_flock.lua", dt);
    fbMeasures start, end;
    fbTelemetry_Measure(&sim, &start);
    int steps = (int)lround(75 / sim.world.dt);
    for (int k = 0; k < steps; ++k) {
      assert_true(fbSim_Step(&sim));
    }
    fbTelemetry_Measure(&sim, &end);
    print_message("%s, seed %d: polarisation %.2f -> %.2f in 75 s, nearest neighbour %.2f\n", dt, seed,
                  start.polarisation, end.polarisation, end.mean_nn);
    assert_true(start.polarisation < 0.2);
    assert_true(end.mean_nn > 1.5 && end.mean_nn < 6);
    polarisation += end.polarisation / FLOCK_SEEDS;
    unload();
  }
  demo_seed = 0;
  print_message("%s: mean polarisation at 75 s over %d seeds %.2f\n", dt, FLOCK_SEEDS, polarisation);
  assert_true(polarisation > 0.45);
}

static void test_classic_flock_forms(void **state)
{
  (void)state;
  classic_flock_forms("world.dt=0.05");
  classic_flock_forms("world.dt=0.025");
}

// Counts agent-steps touching a tree (within 5% of a body radius of contact) over a crossing,
// and checks that no agent is ever inside one.
static int tree_contacts(const char *avoid_weight, double *centre_x)
{
  load_with("scripts/flock_trees.lua", avoid_weight);
  int contacts = 0;
  for (int k = 0; k < 1200; ++k) {
    assert_true(fbSim_Step(&sim));
    const fbAgents *a = &sim.world.agents;
    double r = sim.world.species[0].limits.body_radius;
    for (int i = 0; i < a->count; ++i) {
      for (int o = 0; o < sim.world.obstacles.count; ++o) {
        double d = fbObstacles_Distance(&sim.world.obstacles, o, fbV(a->px[i], a->py[i]), NULL, NULL);
        assert_true(d >= r - 1e-6);
        contacts += d < 1.05 * r;
      }
    }
  }
  *centre_x = 0;
  for (int i = 0; i < sim.world.agents.count; ++i) {
    *centre_x += sim.world.agents.px[i] / sim.world.agents.count;
  }
  unload();
  return contacts;
}

// Steering past the nearest silhouette edge (Gompert 6.2) keeps the flock off the trees; without
// it the flock still crosses (collision handling) but bumps into them far more often. Gompert's
// gain of 10000, the rule's default, touches trees less than a gentler 100 (321 contacts against
// 476), which is why it is the default; the gentler gain still avoids them and crosses. (Before
// bodies slid along what they touch, issue 37: 290 against 499, and 14 621 without avoidance where
// now 7 105: a body that meets a tree slides round it instead of staying pressed to its face.)
static void test_flock_avoids_trees(void **state)
{
  (void)state;
  double with_x, without_x;
  int with = tree_contacts("flock.avoid.weight=1", &with_x);
  int without = tree_contacts("flock.avoid.weight=0", &without_x);
  double gentle_x;  // a gain of 100 instead of Gompert's 10000
  int gentle = tree_contacts("flock.avoid.gain=100", &gentle_x);
  print_message("tree contacts: %d with avoidance (Gompert's gain 10000), %d with gain 100, %d without; "
                "centre x %.0f / %.0f / %.0f\n", with, gentle, without, with_x, gentle_x, without_x);
  assert_true(with_x > 250);
  assert_true(gentle_x > 250);
  assert_true(without_x > 250);
  assert_true(without > 4 * with + 20);
  assert_true(4 * gentle > 5 * with);
  assert_true(without > 4 * gentle + 20);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_herd_splits_round_a_hill, demo_teardown),
      cmocka_unit_test_teardown(test_herd_splits_round_a_hill_at_a_smaller_dt, demo_teardown),
      cmocka_unit_test_teardown(test_herd_reaches_goal, demo_teardown),
      cmocka_unit_test_teardown(test_classic_flock_forms, demo_teardown),
      cmocka_unit_test_teardown(test_flock_avoids_trees, demo_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
