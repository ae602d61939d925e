// test_predators.c — herds and predators: bunching up and fleeing (Gamlen 3.8, evade), catches
// counted once each (the predator rule and the command queue).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "demo_util.h"
#include "test_util.h"

// A predator walks straight at a resting herd. While it comes, the herd's comfort radius shrinks
// and the mean nearest-neighbour distance falls; once it is within the alarm distance the herd
// runs, and the mean distance to the predator grows, though the predator keeps coming.
static void herd_bunches_then_flees(const char *dt)
{
  load_with("tests/data/predator_approach.lua", dt);
  int per_second = (int)lround(1 / sim.world.dt);  // the test counts in seconds, whatever the step
  double settled_nn = 0, alarm_nn = 0, alarm_distance = 0, farthest_after = 0;
  long alarm = -1;
  for (int k = 1; k <= 80 * per_second; ++k) {
    step();
    if (k == 5 * per_second) {
      settled_nn = metric("herd_nn");  // the predator still beyond `far`
      assert_true(metric("herd_to_predator") > 100);
    }
    if (k > 5 * per_second && alarm < 0 && metric("fleeing") > 0) {
      alarm = k;
      alarm_nn = metric("herd_nn");
      alarm_distance = metric("herd_to_predator");
    }
    if (alarm > 0 && k <= alarm + 20 * per_second) {
      farthest_after = fmax(farthest_after, metric("herd_to_predator"));
    }
  }
  print_message("%s: mean nearest neighbour %.2f with the predator far, %.2f when the first animal runs (%.1f s); "
                "mean distance to the predator %.1f then, up to %.1f within 20 s\n",
                dt, settled_nn, alarm_nn, alarm * sim.world.dt, alarm_distance, farthest_after);
  assert_true(alarm > 0);
  assert_true(alarm_nn < 0.7 * settled_nn);
  assert_true(farthest_after > alarm_distance + 20);
  unload();
}

static void test_herd_bunches_as_a_predator_nears_then_flees(void **state)
{
  (void)state;
  herd_bunches_then_flees("world.dt=0.05");
  herd_bunches_then_flees("world.dt=0.025");
}

// Predators hunt the herd over hills; the scenario replaces each catch with a newborn. Every
// step: the herd is its 80 animals plus the newborns minus the catches, so each removal was
// counted exactly once, and nothing else removed anybody.
// The same 150 s at dt 0.05 and 0.025: predators catch at either step, and every catch is counted.
static void each_catch_counted_once(const char *dt)
{
  load_with("scripts/predator_prey.lua", dt);
  int herd = species("herd");
  double last = 0;
  int steps = (int)lround(150 / sim.world.dt);
  for (int k = 1; k <= steps; ++k) {
    step();
    int n = 0;
    for (int i = 0; i < sim.world.agents.count; ++i) {
      n += sim.world.agents.species[i] == herd;
    }
    double catches = metric("catches"), born = metric("born");
    assert_true(catches == (double)sim.catches);
    assert_true(catches >= last);
    assert_int_equal(n, 80 + (int)born - (int)catches);
    assert_int_equal(sim.world.removed_total, sim.catches);
    last = catches;
  }
  print_message("%s: %.0f catches in 150 s, each counted once\n", dt, last);
  assert_true(last >= 5);
  unload();
}

static void test_each_catch_counted_once(void **state)
{
  (void)state;
  each_catch_counted_once("world.dt=0.05");
  each_catch_counted_once("world.dt=0.025");
}

// Two predators reach the same prey in the same step: both ask to remove it, one catch counts.
static void test_two_predators_one_prey_one_catch(void **state)
{
  (void)state;
  load("tests/data/double_catch.lua");
  assert_int_equal(sim.world.agents.count, 4);
  step();
  assert_int_equal(sim.catches, 1);
  assert_int_equal(sim.world.agents.count, 3);
  for (int k = 0; k < 20; ++k) {
    step();
  }
  assert_int_equal(sim.catches, 1);
  assert_int_equal(sim.world.agents.count, 3);
  unload();
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_herd_bunches_as_a_predator_nears_then_flees, demo_teardown),
      cmocka_unit_test_teardown(test_each_catch_counted_once, demo_teardown),
      cmocka_unit_test_teardown(test_two_predators_one_prey_one_catch, demo_teardown),
  };
  return fb_run_tests(tests);
}
