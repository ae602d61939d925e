// test_leaders.c — Bourg's Follow the Leader (ch. 4): who leads, chase against intercept, the pincer.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "demo_util.h"
#include "test_util.h"

// The leaders among the agents of species s; *only is set to the index of the last one found.
static int leaders(int s, int *only)
{
  int n = 0;
  for (int i = 0; i < sim.world.agents.count; ++i) {
    if (sim.world.agents.species[i] == s && field(i, "leader") != 0) {
      n++;
      *only = i;
    }
  }
  return n;
}

// The index of the unit of species s farthest along +x: the front of a line heading +x.
static int front(int s)
{
  int best = -1;
  for (int i = 0; i < sim.world.agents.count; ++i) {
    if (sim.world.agents.species[i] == s && (best < 0 || sim.world.agents.px[i] > sim.world.agents.px[best])) {
      best = i;
    }
  }
  return best;
}

// Six units in a line heading the same way: exactly one leader, the front one. The scenario
// removes it at step 5; from then on exactly one leader again, the next one.
static void test_the_front_unit_leads(void **state)
{
  (void)state;
  load("tests/data/leader_line.lua");
  int unit = species("unit");
  step();
  int leader = -1;
  assert_int_equal(leaders(unit, &leader), 1);
  assert_int_equal(leader, front(unit));
  uint32_t first = sim.world.agents.id[leader];
  for (int k = 2; k < 5; ++k) {
    step();
    assert_int_equal(leaders(unit, &leader), 1);
    assert_int_equal(sim.world.agents.id[leader], first);
  }
  step();
  assert_int_equal(sim.world.step, 5);  // the hook has just removed the front unit
  assert_true(fbWorld_FindAgent(&sim.world, first) < 0);
  step();  // the fields written in this step see the new front
  step();
  assert_int_equal(leaders(unit, &leader), 1);
  assert_int_equal(leader, front(unit));
  print_message("leader id %u, then id %u after the front unit was removed\n", first, sim.world.agents.id[leader]);
  assert_true(sim.world.agents.id[leader] != first);
  unload();
}

// Bourg's count of every type (the rule's default): the unit of another type ahead of the line keeps
// the front unit from leading, and every unit behind it has a unit ahead too.
static void test_a_unit_of_another_type_ahead_blocks_leading(void **state)
{
  (void)state;
  load_with("tests/data/leader_line.lua", "unit.leader.own_type=false");
  int unit = species("unit");
  step();
  int leader = -1;
  assert_int_equal(leaders(unit, &leader), 0);
  unload();
}

// A target crossing the field in a straight line: the pursuer that aims where it will be after
// the closing time reaches it sooner than the one that steers along the line of sight.
static void test_intercept_reaches_a_straight_mover_sooner_than_chase(void **state)
{
  (void)state;
  load("tests/data/pursuit.lua");
  long chase_step = -1, intercept_step = -1;
  for (int k = 0; k < 800 && (chase_step < 0 || intercept_step < 0); ++k) {
    step();
    if (chase_step < 0 && metric("chaser_distance") < 2) {
      chase_step = (long)sim.world.step;
    }
    if (intercept_step < 0 && metric("interceptor_distance") < 2) {
      intercept_step = (long)sim.world.step;
    }
  }
  print_message("within 2 units of the target: intercept at step %ld, chase at step %ld\n", intercept_step, chase_step);
  assert_true(intercept_step > 0);
  assert_true(chase_step > 0);
  assert_true(intercept_step < chase_step);
  unload();
}

// The book's demo: each unit type nearly always has a leader (the front of its flock; a flock
// that mills round the player in a ring has no front for a moment); the regular flock tails the
// player (its units mostly behind it) while the faster interceptors cut in ahead of and beside
// it: the pincer.
static void test_leader_chase_pincer(void **state)
{
  (void)state;
  load("scripts/leader_chase.lua");
  double regular = 0, interceptor = 0;
  int rows = 0, samples = 0, led = 0;
  for (int k = 1; k <= 3000; ++k) {
    step();
    if (k % 10 != 0) {
      continue;
    }
    samples++;
    led += metric("regular_leaders") >= 1 && metric("interceptor_leaders") >= 1;
    if (k >= 400) {
      regular += metric("regular_bearing");
      interceptor += metric("interceptor_bearing");
      rows++;
    }
  }
  regular /= rows;
  interceptor /= rows;
  print_message("both types led at %d of %d samples; mean bearing from the player's heading: regular %.2f, "
                "interceptors %.2f (+1 ahead, -1 behind)\n",
                led, samples, regular, interceptor);
  assert_true(led >= samples * 95 / 100);
  assert_true(regular < -0.4);
  assert_true(interceptor > regular + 0.4);
  unload();
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_the_front_unit_leads, demo_teardown),
      cmocka_unit_test_teardown(test_a_unit_of_another_type_ahead_blocks_leading, demo_teardown),
      cmocka_unit_test_teardown(test_intercept_reaches_a_straight_mover_sooner_than_chase, demo_teardown),
      cmocka_unit_test_teardown(test_leader_chase_pincer, demo_teardown),
  };
  return fb_run_tests(tests);
}
