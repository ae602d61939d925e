// test_vocabulary.c — Reynolds' 1999 crowd behaviours in their demos: queueing at a doorway, hide, interpose, unaligned avoidance.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "demo_util.h"
#include "test_util.h"

#define DOORWAY_STEPS 2000  // 100 s at dt 0.05
#define WALKERS 36

typedef struct Exodus {
  long all_out;       // the step when the last walker was through the door, or -1
  double overlaps;    // pairs of bodies overlapping, summed over the steps (after the first second)
  double most;        // the most pairs overlapping at once (after the first second)
} Exodus;

// Runs scripts/doorway.lua with one --set (or none) until every walker is out or DOORWAY_STEPS.
static Exodus leave_the_room(const char *set)
{
  load_with("scripts/doorway.lua", set);
  Exodus e = {-1, 0, 0};
  for (long k = 1; k <= DOORWAY_STEPS && e.all_out < 0; ++k) {
    step();
    if (k > 20) {  // the spawn may place bodies overlapping: the first second settles them
      double now = metric("overlaps");
      e.overlaps += now;
      e.most = now > e.most ? now : e.most;
    }
    if (metric("exited") >= WALKERS) {
      e.all_out = k;
    }
  }
  unload();
  return e;
}

// Reynolds' doorway: with queueing every walker is out within 100 s and bodies are never pressed
// into each other more than a few pairs at a time; without it the crowd pushes at the door, and
// bodies overlap many times as often (seed 1: 0 pair-steps against 152; docs/steering-crowd.md).
static void test_doorway_queueing_files_the_crowd_through(void **state)
{
  (void)state;
  Exodus queued = leave_the_room(NULL);
  Exodus pushing = leave_the_room("walker.queue.weight=0");
  print_message("queueing: all out at step %ld, overlapping pair-steps %.0f (at most %.0f at once); "
                "without: all out at step %ld, %.0f (at most %.0f)\n",
                queued.all_out, queued.overlaps, queued.most, pushing.all_out, pushing.overlaps, pushing.most);
  assert_true(queued.all_out > 0);
  assert_true(queued.most <= 3);
  assert_true(pushing.overlaps > 3 * queued.overlaps);
}

// a:hiding_spot on a polygon: a bystander in the open hides from a still threat behind a square
// block, at the spot 1.5 past its far side on the line from the threat through its centre.
static void test_hides_behind_a_block(void **state)
{
  (void)state;
  load("tests/data/hide_block.lua");
  for (int k = 0; k < 600; ++k) {
    step();
  }
  int i = -1;
  for (int j = 0; j < sim.world.agents.count; ++j) {
    i = sim.world.agents.species[j] == species("bystander") ? j : i;
  }
  double x = sim.world.agents.px[i], y = sim.world.agents.py[i];
  print_message("the bystander rests at (%.2f, %.2f); the spot is (37.5, 30)\n", x, y);
  assert_true(fabs(x - 37.5) < 0.5 && fabs(y - 30) < 0.5);
  unload();
}

// The mean of the hidden column over steps 300..1200, sampled every 20, with one --set or none.
static double mean_hidden(const char *set, double *guarded)
{
  load_with("scripts/bodyguards.lua", set);
  double sum = 0;
  int n = 0;
  for (int k = 1; k <= 1200; ++k) {
    step();
    if (k >= 300 && k % 20 == 0) {
      sum += metric("hidden");
      n++;
    }
  }
  *guarded = metric("guarded");
  unload();
  return sum / n;
}

// The bodyguards demo: a bodyguard stands on the line VIP-threat most of the time, and most
// bystanders keep a pillar between themselves and the threat; without the hide rule they do not.
static void test_bodyguards_interpose_and_bystanders_hide(void **state)
{
  (void)state;
  double guarded, unused;
  double hidden = mean_hidden(NULL, &guarded);
  double exposed = mean_hidden("bystander.hide.weight=0", &unused);
  print_message("guarded %.2f of the steps; hidden %.2f of the bystanders (%.2f without hide)\n", guarded, hidden, exposed);
  assert_true(guarded >= 0.6);
  assert_true(hidden >= 0.7);
  assert_true(hidden > exposed + 0.3);
}

static double crossing_contacts(const char *const *sets, int count)
{
  load_sets("scripts/crossing.lua", sets, count);
  for (int k = 0; k < 1200; ++k) {
    step();
  }
  double contacts = metric("contacts");
  unload();
  return contacts;
}

// Two streams crossing at right angles: with unaligned avoidance the bodies almost never touch;
// walking straight on, they touch thousands of pair-steps.
static void test_crossing_streams_dodge(void **state)
{
  (void)state;
  const char *off[] = {"east.avoid_unaligned.weight=0", "south.avoid_unaligned.weight=0"};
  double dodging = crossing_contacts(NULL, 0);
  double straight = crossing_contacts(off, 2);
  print_message("overlapping pair-steps over 60 s: %.0f with avoid_unaligned, %.0f without\n", dodging, straight);
  assert_true(straight > 500);
  assert_true(dodging * 20 < straight);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_doorway_queueing_files_the_crowd_through, demo_teardown),
      cmocka_unit_test_teardown(test_hides_behind_a_block, demo_teardown),
      cmocka_unit_test_teardown(test_bodyguards_interpose_and_bystanders_hide, demo_teardown),
      cmocka_unit_test_teardown(test_crossing_streams_dodge, demo_teardown),
  };
  return fb_run_tests(tests);
}
