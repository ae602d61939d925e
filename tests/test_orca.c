// test_orca.c — ORCA: the half-planes and linear programs checked by hand, the stage's determinism, and the crowd demos (RVO2's Circle, the corridor).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "demo_util.h"
#include "orca.h"
#include "test_util.h"

static const fbOrcaSettings SETTINGS = {.time_horizon = 10, .obstacle_horizon = 10, .dt = 0.25, .max_speed = 2};

// How far v lies inside line l (negative: outside).
static double inside(fbOrcaLine l, fbVec2 v) { return fbV_Cross(l.dir, fbV_Sub(v, l.point)); }

// The half-plane { v | (v - point) . n >= 0 } for unit n.
static fbOrcaLine half_plane(fbVec2 point, fbVec2 n)
{
  return (fbOrcaLine){point, fbV(n.y, -n.x)};
}

// ---- the half-planes ------------------------------------------------------------------------------

/*
 * A at the origin moving +x at 1, B at (10) moving -x at 1, radii 1: x = (10), R = 2,
 * v_rel = (2). With tau = 10 the cut-off disc is D((1), 0.2) and w = (1) points away from
 * A: the nearest boundary is a leg, at sin = R / |x| = 0.2 from x. v_rel lies on x, |v_rel| sin =
 * 0.4 from either leg: |u| = 0.4, and each agent takes half: A's own velocity violates its line by
 * 0.2. B's line is A's turned half a turn (point -> -point, dir -> -dir): they pass on opposite sides.
 */
static void test_head_on_half_planes(void **state)
{
  (void)state;
  fbOrcaBody a = {fbV(0, 0), fbV(1, 0), 1, true, 0}, b = {fbV(10, 0), fbV(-1, 0), 1, true, 0};
  fbOrcaLine la = fbOrca_AgentLine(&a, &b, &SETTINGS), lb = fbOrca_AgentLine(&b, &a, &SETTINGS);
  assert_near(inside(la, a.v), -0.2, 1e-12);
  assert_near(inside(lb, b.v), -0.2, 1e-12);
  assert_near(lb.point.x, -la.point.x, 1e-12);
  assert_near(lb.point.y, -la.point.y, 1e-12);
  assert_near(lb.dir.x, -la.dir.x, 1e-12);
  assert_near(lb.dir.y, -la.dir.y, 1e-12);
  // the leg: x turned by asin(0.2), pointing back toward the apex
  assert_near(fabs(la.dir.y), 0.2, 1e-12);
  // B not avoiding: A takes all of u
  b.reciprocal = false;
  assert_near(inside(fbOrca_AgentLine(&a, &b, &SETTINGS), a.v), -0.4, 1e-12);
}

/*
 * Already overlapping: A at the origin at rest, B at (1) at rest, R = 2. The horizon is one step:
 * the disc D(x / dt, R / dt) = D((4), 8) holds v_rel = 0, w = (-4) and u = (8 - 4) (-1): each
 * must move apart by at least 2 units/s, |u| / 2, within the step (0.5 units each: the overlap).
 */
static void test_overlapping_agents_leave_within_a_step(void **state)
{
  (void)state;
  fbOrcaBody a = {fbV(0, 0), fbV(0, 0), 1, true, 0}, b = {fbV(1, 0), fbV(0, 0), 1, true, 0};
  fbOrcaLine l = fbOrca_AgentLine(&a, &b, &SETTINGS);
  assert_near(l.point.x, -2, 1e-12);
  assert_near(l.point.y, 0, 1e-12);
  assert_near(inside(l, fbV(-2, 0)), 0, 1e-12);
  assert_true(inside(l, fbV(-2.1, 0)) > 0);
  assert_true(inside(l, fbV(0, 0)) < 0);
}

// The obstacle lines of obstacles[0 .. n) for self.
static int obstacle_lines(const fbObstacles *o, int n, const fbOrcaBody *self, fbOrcaLine *out)
{
  int all[] = {0, 1, 2, 3};
  return fbOrca_ObstacleLines(o, all, n, self, &SETTINGS, out);
}

/*
 * A circle of radius 2 at (10), a body of radius 1 at the origin: it is an agent of radius 2 that
 * stands still and does not avoid (fbOrca_AgentLine, share 1, horizon tau_o). Moving (1) straight
 * at it: x = (10), R = 3, w = (1) - (1) = 0, so the nearest boundary is a leg at sin = 0.3 from x,
 * |u| = 1 * 0.3: the line is the leg through 0, and the agent's own velocity violates it by 0.3.
 */
static void test_a_circle_is_a_standing_agent(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  char err[128];
  assert_true(fbObstacles_AddCircle(&o, fbV(10, 0), 2, err, sizeof err) == 0);
  fbOrcaBody self = {fbV(0, 0), fbV(1, 0), 1, true, 0}, still = {fbV(10, 0), fbV(0, 0), 2, false, 0};
  fbOrcaSettings agents = SETTINGS;
  agents.time_horizon = SETTINGS.obstacle_horizon;
  fbOrcaLine lines[FB_ORCA_MAX_OBSTACLE_LINES];
  assert_int_equal(obstacle_lines(&o, 1, &self, lines), 1);
  fbOrcaLine as_agent = fbOrca_AgentLine(&self, &still, &agents);
  assert_near(lines[0].point.x, as_agent.point.x, 1e-12);
  assert_near(lines[0].point.y, as_agent.point.y, 1e-12);
  assert_near(lines[0].dir.x, as_agent.dir.x, 1e-12);
  assert_near(lines[0].dir.y, as_agent.dir.y, 1e-12);
  assert_near(inside(lines[0], self.v), -0.3, 1e-12);
  assert_near(inside(lines[0], fbV(0, 0)), 0, 1e-12);  // 0 always allowed
  // touching it (clearance 0): no velocity further in, any along the surface
  self.p = fbV(7, 0);
  assert_int_equal(obstacle_lines(&o, 1, &self, lines), 1);
  assert_true(inside(lines[0], fbV(0.1, 0)) < 0);
  assert_near(inside(lines[0], fbV(0, 2)), 0, 1e-12);
  fbObstacles_Free(&o);
}

/*
 * A wall (the square's top edge, y = 20, the square below it in y-down) 20 below a body of radius
 * 1 at the origin moving straight at it at (0, 1): clearance 19, tau_o = 10, and v projects onto
 * the cut-off segment: down at most 1.9, any speed along the wall. Only the edge facing the body
 * gives a line.
 */
static void test_a_wall_is_its_cut_off_line(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  char err[128];
  fbVec2 square[] = {{-30, 20}, {30, 20}, {30, 26}, {-30, 26}};
  assert_true(fbObstacles_AddPolygon(&o, square, 4, err, sizeof err) == 0);
  fbOrcaBody self = {fbV(0, 0), fbV(0, 1), 1, true, 0};
  fbOrcaLine lines[FB_ORCA_MAX_OBSTACLE_LINES];
  assert_int_equal(obstacle_lines(&o, 1, &self, lines), 1);
  assert_near(inside(lines[0], fbV(0, 1.9)), 0, 1e-12);
  assert_near(inside(lines[0], fbV(1.5, 1.9)), 0, 1e-12);
  assert_true(inside(lines[0], fbV(0, 2)) < 0);
  bool fallback;
  fbVec2 v = fbOrca_Solve(lines, 1, 1, fbV(0, 2), 2, &fallback);
  assert_false(fallback);
  assert_near(v.y, 1.9, 1e-12);
  fbObstacles_Free(&o);
}

/*
 * Issue 37: at a corner the old single half-plane through the nearest point (v . n >= -d / tau_o,
 * n from the corner) forbade passing beside it. A block whose corner is at (1, 1.2) from a body
 * of radius 0.5 at the origin, moving (1.5, 0) past it along the corridor its edge y = 1.2 makes:
 * the block's VO does not hold (1.5, 0) (it never comes within 0.5 of the block), and the lines
 * allow it; the old half-plane allowed at most 0.17 along x. Heading into the block's side, (0.5, 1)
 * at x = 1, is forbidden; stopping (0) is allowed.
 */
static void test_passing_a_corner_is_allowed(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  char err[128];
  fbVec2 block[] = {{1, 1.2}, {9, 1.2}, {9, 20}, {1, 20}};
  assert_true(fbObstacles_AddPolygon(&o, block, 4, err, sizeof err) == 0);
  fbOrcaBody self = {fbV(0, 0), fbV(1.5, 0), 0.5, true, 0};
  fbOrcaLine lines[FB_ORCA_MAX_OBSTACLE_LINES];
  int n = obstacle_lines(&o, 1, &self, lines);
  assert_true(n >= 1);
  for (int k = 0; k < n; ++k) {
    assert_true(inside(lines[k], fbV(1.5, 0)) >= 0);
    assert_true(inside(lines[k], fbV(0, 0)) >= -1e-12);
  }
  bool fallback;
  fbVec2 v = fbOrca_Solve(lines, n, n, fbV(1.5, 0), 2, &fallback);
  assert_near(v.x, 1.5, 1e-12);
  assert_near(v.y, 0, 1e-12);
  self.v = fbV(0.5, 1.0);
  n = obstacle_lines(&o, 1, &self, lines);
  bool forbidden = false;
  for (int k = 0; k < n; ++k) {
    forbidden = forbidden || inside(lines[k], self.v) < 0;
    assert_true(inside(lines[k], fbV(0, 0)) >= -1e-12);
  }
  assert_true(forbidden);
  fbObstacles_Free(&o);
}

/*
 * Velocity 0 lies in every obstacle line, wherever the agent is and however it moves (orca.c): the
 * obstacles' lines are always feasible together, which the 3-D program relies on. A circle, a
 * square and a thin wall; 20 000 positions round them (inside some too) and velocities up to 3,
 * from a fixed generator.
 */
static void test_zero_is_in_every_obstacle_line(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  char err[128];
  assert_true(fbObstacles_AddCircle(&o, fbV(0, 0), 2, err, sizeof err) == 0);
  fbVec2 square[] = {{4, -3}, {10, -3}, {10, 3}, {4, 3}};
  assert_true(fbObstacles_AddPolygon(&o, square, 4, err, sizeof err) == 1);
  fbVec2 wall[] = {{-10, 5}, {10, 5}, {10, 5.2}, {-10, 5.2}};
  assert_true(fbObstacles_AddPolygon(&o, wall, 4, err, sizeof err) == 2);
  uint64_t seed = 37;
  fbOrcaLine lines[FB_ORCA_MAX_OBSTACLE_LINES];
  for (int k = 0; k < 20000; ++k) {
    double r[4];
    for (int j = 0; j < 4; ++j) {
      seed = seed * 6364136223846793005u + 1442695040888963407u;
      r[j] = (double)(seed >> 11) / 9007199254740992.0;  // [0, 1)
    }
    fbOrcaBody self = {fbV(-12 + 26 * r[0], -8 + 16 * r[1]), fbV(3 * cos(6.3 * r[2]) * r[3], 3 * sin(6.3 * r[2]) * r[3]),
                       0.5, true, 0};
    int n = obstacle_lines(&o, 3, &self, lines);
    for (int j = 0; j < n; ++j) {
      assert_true(fabs(fbV_Length(lines[j].dir) - 1) < 1e-9);
      assert_true(inside(lines[j], fbV(0, 0)) >= -1e-12);
    }
  }
  fbObstacles_Free(&o);
}

// ---- the linear programs --------------------------------------------------------------------------

static void test_program_without_lines_caps_the_speed(void **state)
{
  (void)state;
  bool fallback;
  fbVec2 v = fbOrca_Solve(NULL, 0, 0, fbV(3, 4), 2, &fallback);
  assert_near(v.x, 1.2, 1e-12);
  assert_near(v.y, 1.6, 1e-12);
  assert_false(fallback);
}

// v.y >= 1 and v.x >= 2 from a preferred 0: the corner (2, 1). Within speed 1 and v.y >= 1 the
// only velocity is (0, 1), whatever is preferred.
static void test_program_corner_and_disc(void **state)
{
  (void)state;
  fbOrcaLine lines[] = {half_plane(fbV(0, 1), fbV(0, 1)), half_plane(fbV(2, 0), fbV(1, 0))};
  bool fallback;
  fbVec2 v = fbOrca_Solve(lines, 2, 0, fbV(0, 0), 10, &fallback);
  assert_near(v.x, 2, 1e-12);
  assert_near(v.y, 1, 1e-12);
  v = fbOrca_Solve(lines, 1, 0, fbV(1, 0), 1, &fallback);
  assert_near(v.x, 0, 1e-7);
  assert_near(v.y, 1, 1e-12);
  assert_false(fallback);
  // preferred inside both: kept
  v = fbOrca_Solve(lines, 2, 0, fbV(3, 1.5), 10, &fallback);
  assert_near(v.x, 3, 1e-12);
  assert_near(v.y, 1.5, 1e-12);
}

/*
 * v.x >= 1 and v.x <= -1 (two agents' lines): nothing satisfies both, so the 3-D program minimises
 * the larger violation, max(1 - v.x, 1 + v.x): v.x = 0, both violated by 1. With an obstacle line
 * v.x >= 0.5 held hard, the best is v.x = 0.5 (violations 0.5 and 1.5).
 */
static void test_infeasible_program_falls_back(void **state)
{
  (void)state;
  fbOrcaLine lines[] = {half_plane(fbV(0.5, 0), fbV(1, 0)), half_plane(fbV(1, 0), fbV(1, 0)),
                        half_plane(fbV(-1, 0), fbV(-1, 0))};
  bool fallback;
  fbVec2 v = fbOrca_Solve(lines + 1, 2, 0, fbV(0, 0), 2, &fallback);
  assert_true(fallback);
  assert_near(v.x, 0, 1e-12);
  assert_near(inside(lines[1], v), -1, 1e-12);
  assert_near(inside(lines[2], v), -1, 1e-12);
  v = fbOrca_Solve(lines, 3, 1, fbV(0, 0), 2, &fallback);
  assert_true(fallback);
  assert_near(v.x, 0.5, 1e-12);
  assert_true(fbV_Length(v) <= 2 + 1e-12);
}

/*
 * Keeping right: the line v.x <= 0 (an agent ahead) forbids v_pref = (1, 0), so the agent aims at
 * v_pref turned 90 degrees right, (0, 1) in our y-down world, which the line allows: it is chosen.
 * A v_pref the line allows, (-1, 0), is sought as it is; an obstacle line never turns the aim.
 */
static void test_keep_right_turns_the_aim_of_an_agent_giving_way(void **state)
{
  (void)state;
  fbOrcaSettings s = SETTINGS;
  s.keep_right = FB_PI / 2;
  fbOrcaLine line = half_plane(fbV(0, 0), fbV(-1, 0));
  fbVec2 aim = fbOrca_Aim(&line, 1, 0, fbV(1, 0), &s);
  assert_near(aim.x, 0, 1e-12);
  assert_near(aim.y, 1, 1e-12);
  aim = fbOrca_Aim(&line, 1, 0, fbV(-1, 0), &s);
  assert_near(aim.x, -1, 0);
  aim = fbOrca_Aim(&line, 1, 1, fbV(1, 0), &s);  // the line an obstacle's
  assert_near(aim.x, 1, 0);
  s.keep_right = 0;  // the paper's
  aim = fbOrca_Aim(&line, 1, 0, fbV(1, 0), &s);
  assert_near(aim.x, 1, 0);
}

// ---- the stage ------------------------------------------------------------------------------------

static uint64_t corridor_hash(int threads, bool reverse)
{
  load_threads("scripts/crowd_corridor.lua", NULL, 0, threads);
  for (int k = 0; k < 240; ++k) {
    if (reverse && k % 20 == 0) {
      fbSim_ReverseStorage(&sim);
    }
    step();
  }
  uint64_t h = fbSim_Hash(&sim);
  unload();
  return h;
}

static void test_same_result_on_any_thread_count_and_storage_order(void **state)
{
  (void)state;
  uint64_t one = corridor_hash(1, false);
  assert_true(corridor_hash(2, false) == one);
  assert_true(corridor_hash(3, true) == one);
}

// The inspected agent's plan: its own velocity's next value is the one chosen.
static void test_inspected_plan(void **state)
{
  (void)state;
  load("scripts/crowd_corridor.lua");
  step();
  fbSim_Inspect(&sim, 3);
  step();
  assert_null(fbSim_OrcaPlan(&sim, 4));
  const fbOrcaPlan *plan = fbSim_OrcaPlan(&sim, 3);
  assert_non_null(plan);
  assert_true(plan->count >= 2);  // both walls at least
  assert_true(plan->obstacle_count == 2);
  int i = fbWorld_FindAgent(&sim.world, 3);
  assert_near(sim.world.agents.vx[i], plan->chosen.x, 1e-9);
  assert_near(sim.world.agents.vy[i], plan->chosen.y, 1e-9);
  unload();
}

static void test_orca_spellings(void **state)
{
  (void)state;
  const char *sets[] = {"walker.orca.time_horizon=5", "walker.orca.neighbours=4"};
  load_sets("scripts/crowd_corridor.lua", sets, 2);
  const fbSpecies *s = &sim.world.species[0];
  assert_true(s->orca.on);  // orca = true in the file
  assert_near(s->orca.time_horizon, 5, 0);
  assert_int_equal(s->orca.neighbours, 4);
  assert_near(s->orca.distance, 15, 0);  // the default
  unload();
  load_with("scripts/crowd_corridor.lua", "walker.orca=false");
  assert_false(sim.world.species[0].orca.on);
  unload();
}

// ---- the demos ------------------------------------------------------------------------------------

// The closest pair of agents now, and how many pairs are closer than `touch`.
static double closest_pair(double touch, int *overlaps)
{
  const fbAgents *a = &sim.world.agents;
  double best = INFINITY;
  *overlaps = 0;
  for (int i = 0; i < a->count; ++i) {
    for (int j = i + 1; j < a->count; ++j) {
      double d = hypot(a->px[j] - a->px[i], a->py[j] - a->py[i]);
      best = fmin(best, d);
      *overlaps += d < touch;
    }
  }
  return best;
}

static int arrived(double radius)
{
  int n = 0;
  for (int i = 0; i < sim.world.agents.count; ++i) {
    double dx = field(i, "goal_x") - sim.world.agents.px[i], dy = field(i, "goal_y") - sim.world.agents.py[i];
    n += field(i, "has_goal") != 0 && dx * dx + dy * dy <= radius * radius;
  }
  return n;
}


/*
 * RVO2's Circle, keeping right (keep_right = 15): every agent arrives in fewer than the 3 441 steps
 * RVO2 is quoted at (measured: 1 863; RVO2's current code takes 3 547 on this machine) and no pair
 * ever comes closer than 90 % of the sum of the radii, 2.7 (measured: 2.993; RVO2 2.344, the
 * paper's objective here 2.396). The whole crowd of 250 in both builds (a crowd of 50 on the same
 * circle is so symmetric that it deadlocks at the centre, keeping right or not).
 */
static void test_crowd_circle(void **state)
{
  (void)state;
  load("scripts/crowd_circle.lua");
  int n = sim.world.agents.count, most = 0, when = -1;
  double closest = INFINITY;
  for (int k = 1; k < 3441 && when < 0; ++k) {
    step();
    int overlaps;
    closest = fmin(closest, closest_pair(3.0, &overlaps));
    most = overlaps > most ? overlaps : most;
    when = arrived(1.5) == n ? k : -1;
  }
  print_message("%d agents: all arrived at step %d, closest pair %.4f, at most %d pairs closer than 3\n", n, when,
                closest, most);
  assert_true(when > 0 && when < 3441);
  assert_true(closest >= 2.7);
  unload();
}

// Ten agents from each end of the corridor: all at the far end by 120 s (480 steps), no pair ever
// closer than 99% of the sum of the radii, nobody in a wall.
static void test_corridor_groups_pass(void **state)
{
  (void)state;
  load("scripts/crowd_corridor.lua");
  int n = sim.world.agents.count, when = -1;
  double closest = INFINITY, wall = INFINITY;
  for (int k = 1; k <= 480 && when < 0; ++k) {
    step();
    int overlaps;
    closest = fmin(closest, closest_pair(1.0, &overlaps));
    wall = fmin(wall, metric("wall_clearance"));
    when = arrived(1.0) == n ? k : -1;
  }
  print_message("all %d arrived at step %d; closest pair %.4f, wall clearance %.3f\n", n, when, closest, wall);
  assert_true(when > 0);
  assert_true(closest >= 0.99);
  assert_true(wall >= 0);
  unload();
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_head_on_half_planes),
      cmocka_unit_test(test_overlapping_agents_leave_within_a_step),
      cmocka_unit_test(test_a_circle_is_a_standing_agent),
      cmocka_unit_test(test_a_wall_is_its_cut_off_line),
      cmocka_unit_test(test_passing_a_corner_is_allowed),
      cmocka_unit_test(test_zero_is_in_every_obstacle_line),
      cmocka_unit_test(test_program_without_lines_caps_the_speed),
      cmocka_unit_test(test_program_corner_and_disc),
      cmocka_unit_test(test_infeasible_program_falls_back),
      cmocka_unit_test(test_keep_right_turns_the_aim_of_an_agent_giving_way),
      cmocka_unit_test_teardown(test_same_result_on_any_thread_count_and_storage_order, demo_teardown),
      cmocka_unit_test_teardown(test_inspected_plan, demo_teardown),
      cmocka_unit_test_teardown(test_orca_spellings, demo_teardown),
      cmocka_unit_test_teardown(test_crowd_circle, demo_teardown),
      cmocka_unit_test_teardown(test_corridor_groups_pass, demo_teardown),
  };
  return fb_run_tests(tests);
}
