// test_formations.c — the squads demo (scripts/squads.lua): formations form, re-form after trees and bends, members do not cross, a removed elected leader is replaced.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "demo_util.h"
#include "test_util.h"

#define HELD 0.5         // units: a member within this of its slot holds it (spacing 5: a tenth)
#define FORMED_BY 15.0   // s: every squad holds its formation by then, from a random spawn
// s: the longest a squad stays out of formation: a stand of trees is ~70 units long, 14 s at the
// path's 5 units/s, and the squad is back in its slots within a second or two of leaving it
#define REFORM_WITHIN 15
#define REMOVE_AT 70.0   // s: the scenario removes the column's leader

static const char *const SQUADS[] = {"slot_error_wedge", "slot_error_line", "slot_error_column"};
enum { SQUAD_COUNT = 3 };

static double now(void) { return (double)sim.world.step * sim.world.dt; }

// What a run shows per squad: its error when formed, its longest spell out of formation after that
// (trees and bends), its mean error after forming, and the crossings counted by the scenario.
typedef struct {
  double at_formed[SQUAD_COUNT], longest_out[SQUAD_COUNT], worst[SQUAD_COUNT], mean;
  double crossings;
} Run;

static void measure(Run *r, double seconds)
{
  double out_since[SQUAD_COUNT] = {-1, -1, -1}, sum = 0;
  long rows = 0;
  *r = (Run){0};
  while (now() < seconds - 1e-9) {
    step();
    double t = now();
    for (int q = 0; q < SQUAD_COUNT; ++q) {
      double e = metric(SQUADS[q]);
      if (t < FORMED_BY) {
        r->at_formed[q] = e;
        continue;
      }
      r->worst[q] = fmax(r->worst[q], e);
      if (e > HELD && out_since[q] < 0) {
        out_since[q] = t;
      } else if (e <= HELD) {
        out_since[q] = -1;
      }
      if (out_since[q] >= 0) {
        r->longest_out[q] = fmax(r->longest_out[q], t - out_since[q]);
      }
    }
    if (t >= FORMED_BY) {
      sum += metric("slot_error");
      rows++;
    }
  }
  r->mean = sum / (double)rows;
  r->crossings = metric("crossings");
}

static void report(const char *what, const Run *r)
{
  print_message("%s: slot error at %.0f s wedge %.2f line %.2f column %.2f; mean after %.3f; worst wedge %.2f line "
                "%.2f column %.2f; longest out of formation %.1f / %.1f / %.1f s; crossings %.0f\n",
                what, FORMED_BY, r->at_formed[0], r->at_formed[1], r->at_formed[2], r->mean, r->worst[0], r->worst[1],
                r->worst[2], r->longest_out[0], r->longest_out[1], r->longest_out[2], r->crossings);
}

// What a user looks for: every squad in formation by 15 s; trees and bends knock it out of
// formation (some error, or they were not tested) but only while among them; few crossings.
static void expect_formations(const Run *r)
{
  double disturbed = 0;
  for (int q = 0; q < SQUAD_COUNT; ++q) {
    assert_true(r->at_formed[q] < HELD);
    assert_true(r->longest_out[q] <= REFORM_WITHIN);
    disturbed = fmax(disturbed, r->worst[q]);
  }
  assert_true(disturbed > 1.0);  // the trees did get in the way
  assert_true(r->mean < 0.3);
  // Members swap order only when a tree pushes one past another: at most 20 pair swaps in the 105 s
  // after forming, among ~150 pairs of squad-mates (none at all from the assignment itself). Measured
  // 16 at dt 0.05 and 17 at 0.0125; 9 and 11 before bodies slid along what they touch (issue 37): a
  // member that meets a tree now slides round it, on whichever side its slot draws it, where it
  // used to stop on the tree's face behind its mates (it is back in its slot sooner: the wedge's
  // longest time out of formation went from 12.3 s to 6.7 s).
  assert_true(r->crossings <= 20);
}

static void test_squads_form_reform_and_do_not_cross(void **state)
{
  (void)state;
  load("scripts/squads.lua");
  Run r;
  measure(&r, 120);
  report("dt 0.05", &r);
  expect_formations(&r);
  unload();
}

// The same demo at a quarter of the step: the rules are per second, so the same holds.
static void test_the_same_at_another_dt(void **state)
{
  (void)state;
  load_with("scripts/squads.lua", "world.dt=0.0125");
  Run r;
  measure(&r, 120);
  report("dt 0.0125", &r);
  expect_formations(&r);
  unload();
}

// The column's unit that leads (follows itself), or -1; *count how many do.
static int column_leader(int *count)
{
  int column = species("column"), found = -1;
  *count = 0;
  for (int i = 0; i < sim.world.agents.count; ++i) {
    if (sim.world.agents.species[i] == column && field(i, "follows") == (double)sim.world.agents.id[i]) {
      found = i;
      (*count)++;
    }
  }
  return found;
}

// At 70 s the scenario removes the column's leader: Bourg's election flags the unit now in front,
// every member follows it within 2 s, and the column is back in formation within 15 s.
static void test_a_removed_leader_is_replaced(void **state)
{
  (void)state;
  load("scripts/squads.lua");
  int count = 0;
  while (now() < REMOVE_AT - 1) {
    step();
  }
  int before = column_leader(&count);
  assert_int_equal(count, 1);
  uint32_t old_id = sim.world.agents.id[before];
  while (now() < REMOVE_AT + 2) {
    step();
  }
  assert_true(fbWorld_FindAgent(&sim.world, old_id) < 0);
  int after = column_leader(&count);
  assert_int_equal(count, 1);
  uint32_t new_id = sim.world.agents.id[after];
  assert_true(new_id != old_id);
  int column = species("column"), members = 0;
  for (int i = 0; i < sim.world.agents.count; ++i) {
    if (sim.world.agents.species[i] == column) {
      members++;
      assert_true(field(i, "follows") == (double)new_id);
    }
  }
  assert_int_equal(members, 9);
  double worst = 0;
  while (now() < REMOVE_AT + REFORM_WITHIN) {
    step();
    worst = fmax(worst, metric("slot_error_column"));
  }
  print_message("leader id %u removed at %.0f s; id %u leads; column slot error within %d s: worst %.2f, then %.3f\n",
                old_id, REMOVE_AT, new_id, REFORM_WITHIN, worst, metric("slot_error_column"));
  assert_true(metric("slot_error_column") < HELD);
  unload();
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_squads_form_reform_and_do_not_cross, demo_teardown),
      cmocka_unit_test_teardown(test_the_same_at_another_dt, demo_teardown),
      cmocka_unit_test_teardown(test_a_removed_leader_is_replaced, demo_teardown),
  };
  return fb_run_tests(tests);
}
