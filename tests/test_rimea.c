// test_rimea.c — the pedestrian verification tests of RiMEA's guideline (4.1.1, Annex 1) on the pedestrian preset (scripts/rimea/): walking time in a corridor, a corner, a bottleneck's flow, the fundamental diagram.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>
#include <cmocka.h>

#include "demo_util.h"
#include "test_util.h"

// The seeds each crowd test runs on: the spawn differs, the scenario does not.
enum { SEEDS = 3 };

/*
 * Test 1: one pedestrian at 1.33 m/s along a 40 m corridor takes 26-34 s (40 / 1.33 = 30.1 s; the
 * window allows for the start and for a model's own speed profile). 400 steps are 40 s.
 */
static void test_corridor_walk_takes_26_to_34_s(void **state)
{
  (void)state;
  load("scripts/rimea/test01_corridor.lua");
  for (int s = 0; s < 400 && metric("arrival") == 0; ++s) {
    step();
  }
  print_message("40 m in %.1f s\n", metric("arrival"));
  assert_true(metric("arrival") >= 26 && metric("arrival") <= 34);
}

/*
 * Test 6: twenty pedestrians round a corner to the left; all come out at the end within 40 s and
 * no body ever overlaps a wall (its edge at most 1 µm into it: ORCA stops it at the surface).
 */
static void test_corner_crowd_never_crosses_the_wall(void **state)
{
  (void)state;
  for (uint64_t seed = 1; seed <= SEEDS; ++seed) {
    demo_seed = seed;
    load("scripts/rimea/test06_corner.lua");
    double least_gap = INFINITY;
    int inside = 0, s = 0;
    for (; s < 400 && metric("left") < 20; ++s) {
      step();
      least_gap = sim.world.agents.count > 0 ? fmin(least_gap, metric("wall_gap")) : least_gap;
      inside += (int)metric("inside_wall");
    }
    print_message("seed %llu: all out at %.1f s; least gap body-wall %.2g m; centres in a wall %d\n",
                  (unsigned long long)seed, s * 0.1, least_gap, inside);
    assert_true(metric("left") == 20);
    assert_int_equal(inside, 0);
    assert_true(least_gap > -1e-6);
    unload();
  }
  demo_seed = 0;
}

/*
 * Test 12, measured as Seyfried et al. 2009: 60 pedestrians through a bottleneck 1 m wide. All pass
 * within 150 s, and the specific flow J/b of the steady middle (passages 10 to 50) is within 30 %
 * of Seyfried's 1.9 /m/s: 1.33-2.47. The deepest overlap of two bodies after the first 2 s (the
 * random spawn overlaps) is reported: ORCA alone keeps them apart, not exactly (pedestrian.lua).
 */
static void test_bottleneck_flow_near_seyfried(void **state)
{
  (void)state;
  for (uint64_t seed = 1; seed <= SEEDS; ++seed) {
    demo_seed = seed;
    load("scripts/rimea/test12_bottleneck.lua");
    double deepest = 0;
    for (int s = 1; s <= 1500 && metric("passed") < 60; ++s) {
      step();
      deepest = s > 20 ? fmax(deepest, metric("overlap")) : deepest;
    }
    print_message("seed %llu: %g passed; flow %.2f /s, specific flow %.2f /m/s; deepest overlap %.3f m\n",
                  (unsigned long long)seed, metric("passed"), metric("flow"), metric("specific_flow"), deepest);
    assert_true(metric("passed") == 60);
    assert_true(metric("specific_flow") > 1.33 && metric("specific_flow") < 2.47);
    unload();
  }
  demo_seed = 0;
}

/*
 * Test 4, the fundamental diagram: the corridor at densities 0.5-5 /m² (20-200 walkers on 40 m²),
 * 30 s each, the mean speed along it over the last 20 s. Each speed is within 0.3 m/s of Weidmann's
 * and the speed never rises with the density. The model's knee is sharper than Weidmann's: the free
 * speed up to 1.4 /m², then (gap - body) / time gap in each lane (docs/steering-routes.md).
 */
static void test_fundamental_diagram_follows_weidmann(void **state)
{
  (void)state;
  static const int counts[] = {20, 40, 80, 120, 160, 200};
  double last = INFINITY;
  for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
    char set[64];
    snprintf(set, sizeof set, "walker.count=%d", counts[k]);
    load_with("scripts/rimea/test04_fundamental.lua", set);
    double sum = 0;
    int n = 0;
    for (int s = 1; s <= 300; ++s) {
      step();
      if (s > 100) {
        sum += metric("speed");
        n++;
      }
    }
    double speed = sum / n, weidmann = metric("weidmann");
    print_message("density %.1f /m2: speed %.3f m/s, Weidmann %.3f\n", metric("density"), speed, weidmann);
    assert_true(fabs(speed - weidmann) < 0.3);
    assert_true(speed <= last + 0.01);
    last = speed;
    unload();
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_corridor_walk_takes_26_to_34_s, demo_teardown),
      cmocka_unit_test_teardown(test_corner_crowd_never_crosses_the_wall, demo_teardown),
      cmocka_unit_test_teardown(test_bottleneck_flow_near_seyfried, demo_teardown),
      cmocka_unit_test_teardown(test_fundamental_diagram_follows_weidmann, demo_teardown),
  };
  return fb_run_tests(tests);
}
