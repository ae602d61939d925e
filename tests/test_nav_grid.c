// test_nav_grid.c — paths for single agents: the nav grid, A* and string pulling by hand, and a:route in a world (tests/data/route_wall.lua, scripts/rts_move.lua).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "demo_util.h"
#include "nav_grid.h"
#include "test_util.h"

// A 40 x 40 world, cells of 1, bodies of radius 0.5, and a wall across x = 20 from y = 0 to 30.
static void walled(fbNavGrid *g, fbObstacles *o)
{
  fbObstacles_Init(o);
  fbVec2 wall[] = {{19.5, 0}, {20.5, 0}, {20.5, 30}, {19.5, 30}};
  char err[128];
  assert_true(fbObstacles_AddPolygon(o, wall, 4, err, sizeof err) >= 0);
  memset(g, 0, sizeof *g);
  fbNavGrid_Build(g, o, 40, 40, true, 1.0, 0.5);
}

static double length_of(fbVec2 from, const fbVec2 *p, int n)
{
  double sum = 0;
  for (int k = 0; k < n; ++k) {
    sum += fbV_Length(fbV_Sub(p[k], k ? p[k - 1] : from));
  }
  return sum;
}

// In the open the taut path is the straight line: one waypoint, the goal.
static void test_open_ground_is_one_straight_leg(void **state)
{
  (void)state;
  fbObstacles o;
  fbNavGrid g;
  fbObstacles_Init(&o);
  memset(&g, 0, sizeof g);
  fbNavGrid_Build(&g, &o, 40, 40, true, 1.0, 0.5);
  fbVec2 path[16];
  int n = fbNavGrid_FindPath(&g, fbV(3.5, 3.5), fbV(33.2, 21.7), path, 16);
  assert_int_equal(n, 1);
  assert_near(path[0].x, 33.2, 0);
  assert_near(path[0].y, 21.7, 0);
  fbNavGrid_Free(&g);
  fbObstacles_Free(&o);
}

// Round the wall's end: the path bends at the end (y at least 30 + clearance, within two cells),
// every leg is in sight, and it is no longer than the way through the corner plus a cell.
static void test_path_bends_round_the_wall_end(void **state)
{
  (void)state;
  fbObstacles o;
  fbNavGrid g;
  walled(&g, &o);
  fbVec2 from = fbV(10.5, 10.5), to = fbV(30.5, 10.5), path[64];
  int n = fbNavGrid_FindPath(&g, from, to, path, 64);
  assert_true(n >= 2 && n <= 3);  // measured: (18.5, 30.5), (21.5, 30.5), the goal
  assert_true(path[0].y >= 30.5 && path[0].y < 32.5);
  fbVec2 a = from;
  for (int k = 0; k < n; ++k) {
    assert_true(fbNavGrid_LineOfSight(&g, a, path[k]));
    a = path[k];
  }
  double best = 2 * hypot(10, 20.5);  // via the corner (20, 31) of the wall grown by the body
  print_message("%d waypoints, length %.3f (by the corner: %.3f), %d cells expanded\n", n, length_of(from, path, n),
                best, g.expanded);
  assert_true(length_of(from, path, n) < best + 1.5);
  assert_false(fbNavGrid_LineOfSight(&g, from, to));  // the wall is in the way
  fbNavGrid_Free(&g);
  fbObstacles_Free(&o);
}

// Walled in: no path. A goal inside the wall: moved to the nearest free cell beside it.
static void test_unreachable_and_blocked_goals(void **state)
{
  (void)state;
  fbObstacles o;
  fbNavGrid g;
  fbObstacles_Init(&o);
  fbVec2 box[] = {{10, 10}, {30, 10}, {30, 30}, {10, 30}};
  char err[128];
  assert_true(fbObstacles_AddPolygon(&o, box, 4, err, sizeof err) >= 0);
  memset(&g, 0, sizeof g);
  fbNavGrid_Build(&g, &o, 40, 40, true, 1.0, 0.5);
  fbVec2 path[64];
  assert_int_equal(fbNavGrid_FindPath(&g, fbV(5, 5), fbV(20, 20), path, 64), 0);  // 10 cells deep: beyond reach
  int n = fbNavGrid_FindPath(&g, fbV(5, 5), fbV(10.2, 20), path, 64);             // just inside its edge
  assert_true(n >= 1);
  assert_true(path[n - 1].x < 10 - 0.5 + 1e-9);
  fbNavGrid_Free(&g);
  fbObstacles_Free(&o);
}

// ---- a:route in a world ---------------------------------------------------------------------------

static double wall_clearance_now(void)
{
  const fbAgents *a = &sim.world.agents;
  double least = INFINITY;
  for (int i = 0; i < a->count; ++i) {
    least = fmin(least, fbObstacles_Distance(&sim.world.obstacles, 0, fbV(a->px[i], a->py[i]), NULL, NULL) - 0.5);
  }
  return least;
}

// Eight walkers round the wall to the point behind it: every one arrives, none ever in the wall.
static void test_walkers_route_round_the_wall(void **state)
{
  (void)state;
  load_threads("tests/data/route_wall.lua", NULL, 0, 1);
  double least = INFINITY;
  int when = -1;
  for (int k = 1; k <= 900 && when < 0; ++k) {
    step();
    least = fmin(least, wall_clearance_now());
    int there = 0;
    for (int i = 0; i < sim.world.agents.count; ++i) {
      there += hypot(sim.world.agents.px[i] - 45, sim.world.agents.py[i] - 10) < 2.5;
    }
    when = there == sim.world.agents.count ? k : -1;
  }
  print_message("all arrived within 2.5 of the goal at step %d (%.1f s); least wall clearance %.3f\n", when,
                when * 0.1, least);
  assert_true(when > 0);
  assert_true(least > -0.05);  // ORCA keeps bodies off the wall (to rounding)
  unload();
}

static uint64_t route_hash(int threads)
{
  load_threads("tests/data/route_wall.lua", NULL, 0, threads);
  for (int k = 0; k < 300; ++k) {
    if (k % 50 == 0) {
      fbSim_ReverseStorage(&sim);
    }
    step();
  }
  uint64_t h = fbSim_Hash(&sim);
  unload();
  return h;
}

// The routes, and so the run, are the same on one thread and on two (and storage order reversed).
static void test_same_routes_on_any_thread_count(void **state)
{
  (void)state;
  uint64_t one = route_hash(1);
  assert_true(route_hash(2) == one);
  assert_true(route_hash(3) == one);
}

/*
 * scripts/rts_move.lua: three squads of eight sent across a town of ten buildings, then to other
 * corners at 90 s. Every unit arrives within 3 of its order before the next (step 850) and by the
 * end (step 1800); none is ever stuck (slower than 0.05 and farther than 3 from its order) for 2 s
 * in a row (at an order all stand for a moment); none ever enters a building.
 */
static void test_rts_move_squads_arrive(void **state)
{
  (void)state;
  load_threads("scripts/rts_move.lua", NULL, 0, 2);
  int stuck_run = 0, longest = 0, first = -1, second = -1;
  double least = INFINITY;
  for (int k = 1; k <= 1800; ++k) {
    step();
    stuck_run = metric("stuck") > 0 ? stuck_run + 1 : 0;
    longest = stuck_run > longest ? stuck_run : longest;
    least = fmin(least, metric("wall_clearance"));
    int arrived = (int)metric("arrived");
    first = first < 0 && k < 900 && arrived == 24 ? k : first;
    second = second < 0 && k > 900 && arrived == 24 ? k : second;
  }
  print_message("all 24 arrived at step %d (order at 0) and %d (order at 900); longest stuck %d steps; least wall "
                "clearance %.4f\n", first, second, longest, least);
  assert_true(first > 0 && first <= 850);
  assert_true(second > 900 && second <= 1800);
  assert_true(longest < 20);
  assert_true(least > -0.05);
  unload();
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_open_ground_is_one_straight_leg),
      cmocka_unit_test(test_path_bends_round_the_wall_end),
      cmocka_unit_test(test_unreachable_and_blocked_goals),
      cmocka_unit_test_teardown(test_walkers_route_round_the_wall, demo_teardown),
      cmocka_unit_test_teardown(test_same_routes_on_any_thread_count, demo_teardown),
      cmocka_unit_test_teardown(test_rts_move_squads_arrive, demo_teardown),
  };
  return fb_run_tests(tests);
}
