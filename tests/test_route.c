// test_route.c — route fields: fast marching against the true distance, unreached pockets, the descent of T, bad options refused by name, a goal moved, the maze walked out of, the herd taking the pass.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>
#include <cmocka.h>

#include "demo_util.h"
#include "fb_math.h"
#include "route_field.h"
#include "test_util.h"

// ---- the march by itself ------------------------------------------------------------------------

// An open 101 x 101 grid of unit cells, the goal at the centre of the middle cell: T is the
// Euclidean distance within first-order error, which shrinks with the distance in cells (Dijkstra
// on 8 neighbours is 8% long at 22.5 degrees at any distance, however fine the grid).
static void test_open_ground_is_euclidean(void **state)
{
  (void)state;
  fbRoute r;
  char err[256];
  assert_true(fbRoute_Init(&r, 101, 101, 101, 101, false, 1.0, err, sizeof err));
  fbVec2 goal = fbV(50.5, 50.5);
  fbRoute_SetGoals(&r, &goal, 1);
  double *vx = malloc(sizeof *vx * 101 * 101), *vy = malloc(sizeof *vy * 101 * 101);
  assert_int_equal(fbRoute_Solve(&r, vx, vy), 101 * 101);
  double worst = 0.0, far = 0.0, least_cosine = 1.0;
  for (int k = 0; k < 101 * 101; ++k) {
    fbVec2 c = fbV(k % 101 + 0.5, k / 101 + 0.5);
    double d = fbV_Length(fbV_Sub(c, goal));
    if (d >= 10) {
      worst = fmax(worst, fabs(r.distance[k] - d) / d);
    }
    if (d >= 40) {
      far = fmax(far, fabs(r.distance[k] - d) / d);
    }
    if (d > 0) {  // the velocity is the unit descent: toward the goal within a few degrees
      double cosine = (vx[k] * (goal.x - c.x) + vy[k] * (goal.y - c.y)) / d;
      least_cosine = fmin(least_cosine, cosine);
    }
  }
  print_message("largest relative error of T beyond 10 cells: %.4f, beyond 40: %.4f; least cosine of the velocity to "
                "the goal %.4f\n",
                worst, far, least_cosine);
  assert_true(worst < 0.05 && far < 0.03);
  assert_true(least_cosine > 0.99);
  free(vx);
  free(vy);
  fbRoute_Free(&r);
}

// A walled pocket with no way in: its cells are flagged unreached, still, and hold no NaN.
static void test_a_closed_pocket_is_unreached(void **state)
{
  (void)state;
  fbRoute r;
  char err[256];
  assert_true(fbRoute_Init(&r, 40, 20, 40, 20, false, 3.0, err, sizeof err));
  for (int j = 2; j <= 12; ++j) {
    for (int i = 22; i <= 32; ++i) {
      r.blocked[j * 40 + i] = j == 2 || j == 12 || i == 22 || i == 32;  // a ring of wall cells
    }
  }
  fbVec2 goal = fbV(5, 5);
  fbRoute_SetGoals(&r, &goal, 1);
  double vx[800], vy[800];
  fbRoute_Solve(&r, vx, vy);
  int pocket = (7 * 40 + 27);
  assert_int_equal(r.reach[pocket], FB_ROUTE_UNREACHED);
  assert_true(vx[pocket] == 0 && vy[pocket] == 0);
  assert_true(fbRoute_Distance(&r, 27.5, 7.5) == -1);
  assert_int_equal(r.reach[2 * 40 + 27], FB_ROUTE_ESCAPE);  // the ring itself leads out
  for (int k = 0; k < 800; ++k) {
    assert_false(isnan(vx[k]) || isnan(vy[k]) || isnan(r.distance[k]));
  }
  fbRoute_Free(&r);
}

// ---- bad options --------------------------------------------------------------------------------

static void expect_refused(const char *body, const char *want)
{
  char scenario[128];
  snprintf(scenario, sizeof scenario, "/tmp/fb_test_route_%ld.lua", (long)getpid());
  FILE *f = fopen(scenario, "w");
  assert_non_null(f);
  fprintf(f,
          "return { world = { width = 40, height = 30 }, regions = { pen = { {1, 1}, {39, 1}, {39, 29} } }, %s, "
          "species = { { name = \"b\", count = 1 } } }\n",
          body);
  fclose(f);
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.headless = true;
  char err[2048];
  fbSim s;
  bool ok = fbSim_Load(&s, scenario, &o, err, sizeof err);
  if (ok) {
    fbSim_Free(&s);
    fail_msg("loaded: %s", body);
  }
  print_message("%s\n", err);
  assert_non_null(strstr(err, scenario));
  if (strstr(err, want) == NULL) {
    fail_msg("expected '%s' in: %s", want, err);
  }
  unlink(scenario);
}

static void test_bad_routes_are_refused_by_name(void **state)
{
  (void)state;
  expect_refused("flow_fields = { out = { route = { } } }", "flow_fields.out.route.to: expected the goal");
  expect_refused("flow_fields = { out = { route = { to = 5 } } }", "flow_fields.out.route.to: expected the goal");
  expect_refused("flow_fields = { out = { route = { to = { 5, 'y' } } } }", "flow_fields.out.route.to");
  expect_refused("flow_fields = { out = { route = { to = 'nowhere' } } }", "no region named 'nowhere'");
  expect_refused("flow_fields = { out = { route = { to = { 5, 5 }, cost = 'time' } } }",
                 "flow_fields.out.route.cost: expected \"distance\", \"energy\" or function");
  expect_refused("flow_fields = { out = { route = { to = { 5, 5 }, cell = 5, cost = function(x) return x > 20 and -1 or 1 end } } }",
                 "flow_fields.out.route.cost: at (22.5, 2.5): returned a number out of range");
  expect_refused("flow_fields = { out = { route = { to = { 5, 5 }, cost = function() return 'steep' end } } }",
                 "returned a string");
  expect_refused("flow_fields = { out = { route = { to = { 5, 5 }, clearance = -2 } } }", "flow_fields.out.route.clearance");
  expect_refused("flow_fields = { out = { route = { to = { 5, 5 }, walls = { 'pen', 7 } } } }",
                 "flow_fields.out.route.walls: item 2");
  expect_refused("flow_fields = { out = { route = { to = { 5, 5 }, inside = 'pen' } } }",
                 "flow_fields.out.route.to: no free cell round the goal");
  expect_refused("flow_fields = { out = { route = { to = { 5, 5 } }, fn = function() return 0, 0 end } }",
                 "flow_fields.out.route: expected route = { to = ... } with no png or fn");
  expect_refused("flow_fields = { out = { route = { to = { 5, 5 }, speeed = 1 } } }", "flow_fields.out.route.speeed");
}

// ---- a goal moved from a hook -------------------------------------------------------------------

// fb.route_to from on_step at step 5 moves the goal across the world: the field the next step reads
// leads to the new goal, and fb.route_to returns the cells it reaches (all of an open world).
static void test_route_to_moves_the_goal_within_the_step(void **state)
{
  (void)state;
  char scenario[128];
  snprintf(scenario, sizeof scenario, "/tmp/fb_test_route_to_%ld.lua", (long)getpid());
  FILE *f = fopen(scenario, "w");
  assert_non_null(f);
  fprintf(f, "local cells\n"
             "return { world = { width = 100, height = 100, bounds = 'clamp' }, obstacles = { { circle = { 50, 50, 10 } } },\n"
             "  flow_fields = { go = { route = { to = { 10, 10 }, cell = 2, speed = 3 } } },\n"
             "  species = { { name = 'b', count = 1 } },\n"
             "  on_step = function() if fb.time() == 5 then cells = fb.route_to('go', 90, 90) end end,\n"
             "  metrics = { { 'cells', function() return cells or 0 end } } }\n");
  fclose(f);
  load(scenario);
  const fbFlowField *go = &sim.world.flows.items[0];
  fbVec2 v = fbFlowField_Sample(go, 30, 70);
  assert_true(v.x < 0 && v.y < 0);  // toward (10, 10)
  for (int s = 1; s <= 5; ++s) {
    step();
  }
  v = fbFlowField_Sample(go, 30, 70);
  print_message("after fb.route_to: velocity at (30, 70) is (%g, %g); %g cells reached\n", v.x, v.y, metric("cells"));
  assert_true(v.x > 0 && v.y > 0);  // toward (90, 90)
  v = fbFlowField_Sample(go, 90, 40);
  assert_true(fabs(v.x) < 0.5 && v.y > 2.9);  // straight down to it
  assert_true(metric("cells") > 2000 && metric("cells") < 2500);  // 50 x 50 less the disc and the edge's clearance
  assert_true(fbRoute_Distance(go->route, 90, 90) < 1.5);  // the goal sits on a cell corner, centres 1.41 away
  unload();
  unlink(scenario);
}

// ---- goals and costs ------------------------------------------------------------------------------

// Loads a 100 x 100 walled world with route fields `body` (one sim at a time: the demo's).
static void load_world(const char *body)
{
  char scenario[128];
  snprintf(scenario, sizeof scenario, "/tmp/fb_test_route_w_%ld.lua", (long)getpid());
  FILE *f = fopen(scenario, "w");
  assert_non_null(f);
  fprintf(f, "return { world = { width = 100, height = 100, bounds = 'clamp' },\n"
             "  regions = { pen = { {80, 80}, {95, 80}, {95, 95}, {80, 95} }, pond = { {40, 0}, {60, 0}, {60, 70}, {40, 70} } },\n"
             "  flow_fields = { %s }, species = { { name = 'b', count = 1 } } }\n", body);
  fclose(f);
  load(scenario);
  unlink(scenario);
}

static fbVec2 flow_at(const char *name, double x, double y)
{
  return fbFlowField_Sample(&sim.world.flows.items[fbFlowFields_Find(&sim.world.flows, name)], x, y);
}

// Several goals: each point heads for the nearer. A goal region: T is 0 inside it, the field still.
// A wall region is gone round. A cost function: a dear band is crossed the short way.
static void test_goals_regions_and_costs(void **state)
{
  (void)state;
  load_world("two = { route = { to = { {10, 50}, {90, 50} }, speed = 1 } }, pen = { route = { to = 'pen' } },\n"
             "round = { route = { to = { 90, 30 }, walls = { 'pond' }, clearance = 1 } },\n"
             "dear = { route = { to = { 50, 90 }, cell = 2, cost = function(x, y) return (y > 40 and y < 60) and 20 or 1 end } }");
  assert_true(flow_at("two", 30, 50).x < -0.9 && flow_at("two", 70, 50).x > 0.9);
  const fbRoute *pen = sim.world.flows.items[fbFlowFields_Find(&sim.world.flows, "pen")].route;
  assert_true(fbRoute_Distance(pen, 87, 87) == 0 && fbRoute_Distance(pen, 20, 20) > 80);
  fbVec2 v = flow_at("pen", 87, 87);
  assert_true(v.x == 0 && v.y == 0);  // arrived: still
  // From (10, 30) to (90, 30) the pond (x 40..60, y < 70) is gone round below: the field heads down.
  v = flow_at("round", 30, 30);
  assert_true(v.y > 0.5 * fbV_Length(v));
  // Inside the dear band (20 a unit, y 40..60) the route to (50, 90) leaves it the short way: down, not slanting.
  v = flow_at("dear", 30, 50);
  print_message("round the pond at (30, 30): (%g, %g); in the dear band at (30, 50): (%g, %g)\n",
                flow_at("round", 30, 30).x, flow_at("round", 30, 30).y, v.x, v.y);
  assert_true(v.y > 0.95 * fbV_Length(v));
  unload();
}

// ---- the maze -----------------------------------------------------------------------------------

// The distance to the nearest obstacle surface from agent i (negative inside one).
static double wall_distance(int i)
{
  const fbAgents *a = &sim.world.agents;
  double d = INFINITY;
  int index;
  fbObstacles_Nearest(&sim.world.obstacles, fbV(a->px[i], a->py[i]), 1e9, &index, &d);
  return d;
}

/*
 * scripts/flow_maze.lua's route field, as built: no NaN anywhere; every reached cell but the
 * goal's moves at the field's speed, and half a cell along its velocity T is lower (bilinear over
 * the reached cells): the field runs downhill of T everywhere, in free cells and out of walls.
 */
static void test_maze_field_runs_downhill(void **state)
{
  (void)state;
  load("scripts/flow_maze.lua");
  const fbFlowField *f = &sim.world.flows.items[fbFlowFields_Find(&sim.world.flows, "exit")];
  const fbRoute *r = f->route;
  assert_non_null(r);
  int checked = 0, escape = 0;
  for (int k = 0; k < r->cols * r->rows; ++k) {
    assert_false(isnan(f->vx[k]) || isnan(f->vy[k]) || isnan(r->distance[k]));
    if (r->reach[k] == FB_ROUTE_UNREACHED || r->goal[k] || r->distance[k] < 2 * r->hx) {
      continue;  // within a cell or two of the goal T is flat across its corner: the velocity aims at it
    }
    fbVec2 c = fbFlowGrid_Centre(k % r->cols, k / r->cols, r->cols, r->rows, r->width, r->height);
    double speed = fbMath_Hypot(f->vx[k], f->vy[k]);
    if (fabs(speed - r->speed) > 1e-9) {
      fail_msg("cell at (%g, %g): speed %g, expected %g", c.x, c.y, speed, r->speed);
    }
    fbVec2 next = fbV_Add(c, fbV(0.5 * f->vx[k] / speed * r->hx, 0.5 * f->vy[k] / speed * r->hy));
    if (!(fbRoute_Distance(r, next.x, next.y) < r->distance[k])) {
      fail_msg("cell at (%g, %g), T %g: half a cell along (%g, %g) T is %g", c.x, c.y, r->distance[k], f->vx[k], f->vy[k],
               fbRoute_Distance(r, next.x, next.y));
    }
    checked++;
    escape += r->reach[k] == FB_ROUTE_ESCAPE;
  }
  print_message("%d cells run downhill, %d of them in walls' clearance\n", checked, escape);
  assert_true(checked > 2000 && escape > 500);
  unload();
}

/*
 * The maze walked: every one of the 120 walkers reaches the exit within 100 s (2000 steps; the
 * shortest route is about 470 units, 78 s at 6 units/s), none is ever inside an obstacle or
 * outside the outline.
 */
static void test_maze_everyone_gets_out(void **state)
{
  (void)state;
  load("scripts/flow_maze.lua");
  int walker = species("walker"), inside_wall = 0, outside = 0, reached_at = -1;
  for (int s = 1; s <= 2000 && reached_at < 0; ++s) {
    step();
    outside += (int)metric("outside");
    for (int i = 0; i < sim.world.agents.count; ++i) {
      inside_wall += sim.world.agents.species[i] == walker && wall_distance(i) < 0;
    }
    reached_at = metric("reached") == 120 ? s : -1;
  }
  print_message("all 120 out at step %d; inside a wall %d agent-steps, outside %d\n", reached_at, inside_wall, outside);
  assert_true(reached_at > 0);
  assert_int_equal(inside_wall, 0);
  assert_int_equal(outside, 0);
  unload();
}

// ---- herd_valley ---------------------------------------------------------------------------------

/*
 * scripts/herd_valley.lua, seeds 1-3: both herds of 30 arrive (within 6000 steps, 300 s); the
 * routed herd spends less energy per animal (under 0.7 of the direct herd's: 250 against 430 on
 * these seeds) and arrives sooner, and every routed animal crosses the ridge line within 15 units
 * of the pass while no direct one does.
 */
static void test_herd_valley_takes_the_pass(void **state)
{
  (void)state;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    demo_seed = seed;
    load("scripts/herd_valley.lua");
    for (int s = 1; s <= 6000 && !(metric("routed_arrived") == 30 && metric("direct_arrived") == 30); ++s) {
      step();
    }
    print_message("seed %llu: routed energy %.1f trip %.1f s crossing x %.1f (%g at the pass); direct energy %.1f trip "
                  "%.1f s crossing x %.1f (%g at the pass)\n",
                  (unsigned long long)seed, metric("routed_energy"), metric("routed_trip"), metric("routed_cross_x"),
                  metric("routed_at_pass"), metric("direct_energy"), metric("direct_trip"), metric("direct_cross_x"),
                  metric("direct_at_pass"));
    assert_true(metric("routed_arrived") == 30 && metric("direct_arrived") == 30);
    assert_true(metric("routed_energy") < 0.7 * metric("direct_energy"));
    assert_true(metric("routed_trip") < metric("direct_trip"));
    assert_true(metric("routed_at_pass") == 30 && metric("direct_at_pass") == 0);
    unload();
  }
  demo_seed = 0;
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_open_ground_is_euclidean),
      cmocka_unit_test(test_a_closed_pocket_is_unreached),
      cmocka_unit_test(test_bad_routes_are_refused_by_name),
      cmocka_unit_test_teardown(test_route_to_moves_the_goal_within_the_step, demo_teardown),
      cmocka_unit_test_teardown(test_goals_regions_and_costs, demo_teardown),
      cmocka_unit_test_teardown(test_maze_field_runs_downhill, demo_teardown),
      cmocka_unit_test_teardown(test_maze_everyone_gets_out, demo_teardown),
      cmocka_unit_test_teardown(test_herd_valley_takes_the_pass, demo_teardown),
  };
  return fb_run_tests(tests);
}
