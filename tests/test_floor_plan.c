// test_floor_plan.c — walls from a PNG floor plan: dark pixels merged into few rectangles that cover them exactly; bad plans refused by name; scripts/evacuation.lua emptied with nobody through a wall.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>
#include <cmocka.h>
#include <stb_image_write.h>

#include "demo_util.h"
#include "floor_plan.h"
#include "test_util.h"

/*
 * A 6 × 5 plan at 0.5 m a pixel: an L of wall (a band 2 pixels thick along the top, a column down
 * the left), a lone pixel, a grey pixel lighter than 128 (floor). The cover: every wall pixel's
 * centre inside an obstacle, every floor pixel's centre outside all; the band one rectangle and the
 * column under it another, the lone pixel a third.
 */
static void test_dark_pixels_become_few_rectangles(void **state)
{
  (void)state;
  static const unsigned char grey[5][6] = {
      {0, 0, 0, 0, 0, 0},
      {0, 0, 0, 0, 0, 0},
      {0, 255, 255, 255, 200, 255},
      {0, 255, 255, 40, 255, 255},
      {0, 255, 255, 255, 255, 255},
  };
  const char *path = fbTest_ScratchPath("plan.png");
  assert_true(stbi_write_png(path, 6, 5, 1, grey, 6));
  fbObstacles o;
  fbObstacles_Init(&o);
  int walls = 0;
  char err[512];
  assert_true(fbFloorPlan_AddWalls(&o, path, 0.5, &walls, err, sizeof err));
  assert_int_equal(walls, 3);
  assert_int_equal(o.count, 3);
  for (int j = 0; j < 5; ++j) {
    for (int i = 0; i < 6; ++i) {
      double d;
      int index;
      fbObstacles_Nearest(&o, fbV((i + 0.5) * 0.5, (j + 0.5) * 0.5), 100, &index, &d);
      if (grey[j][i] < 128) {
        assert_true(d < 0);  // inside: negative depth
      } else {
        assert_true(d > 0);
      }
    }
  }
  fbObstacles_Free(&o);
}

// A missing file, a blank plan and a bad cell are refused with the reason.
static void test_bad_plans_are_refused(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  int walls;
  char err[512];
  assert_false(fbFloorPlan_AddWalls(&o, "no/such/plan.png", 1, &walls, err, sizeof err));
  assert_non_null(strstr(err, "no/such/plan.png: cannot read"));
  static const unsigned char white[4] = {255, 255, 255, 255};
  const char *blank = fbTest_ScratchPath("blank.png");
  assert_true(stbi_write_png(blank, 2, 2, 1, white, 2));
  assert_false(fbFloorPlan_AddWalls(&o, blank, 1, &walls, err, sizeof err));
  assert_non_null(strstr(err, "no wall in the plan"));
  assert_false(fbFloorPlan_AddWalls(&o, blank, 0, &walls, err, sizeof err));
  assert_non_null(strstr(err, "cell 0"));
  assert_int_equal(o.count, 0);
  fbObstacles_Free(&o);
}

static double wall_distance(int i)
{
  const fbAgents *a = &sim.world.agents;
  double d = INFINITY;
  int index;
  fbObstacles_Nearest(&sim.world.obstacles, fbV(a->px[i], a->py[i]), 1e9, &index, &d);
  return d;
}

/*
 * scripts/evacuation.lua: all 150 leave within 60 s (600 steps), by all three exits; no centre is
 * ever inside a wall and no body overlaps one by more than 2 cm (ORCA's obstacle constraint holds
 * up to its least-violation fallback in the crush at a door).
 */
static void test_evacuation_everyone_leaves_none_through_a_wall(void **state)
{
  (void)state;
  load("scripts/evacuation.lua");
  int inside = 0;
  double least_gap = INFINITY;
  for (int s = 0; s < 600 && metric("left") < 150; ++s) {
    step();
    for (int i = 0; i < sim.world.agents.count; ++i) {
      double d = wall_distance(i);
      inside += d < 0;
      least_gap = fmin(least_gap, d - 0.22);
    }
  }
  print_message("all out at %.1f s: west %g (%.2f /s), east %g (%.2f /s), north %g (%.2f /s); least gap body-wall "
                "%.3f m, centres in a wall %d\n",
                metric("evacuated_at"), metric("west"), metric("west_flow"), metric("east"), metric("east_flow"),
                metric("north"), metric("north_flow"), least_gap, inside);
  assert_true(metric("left") == 150 && metric("evacuated_at") > 0);
  assert_true(metric("west") > 0 && metric("east") > 0 && metric("north") > 0);
  assert_int_equal(inside, 0);
  assert_true(least_gap > -0.02);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dark_pixels_become_few_rectangles),
      cmocka_unit_test(test_bad_plans_are_refused),
      cmocka_unit_test_teardown(test_evacuation_everyone_leaves_none_through_a_wall, demo_teardown),
  };
  return fb_run_tests(tests);
}
