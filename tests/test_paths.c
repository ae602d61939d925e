// test_paths.c — spline paths and their objects: through the points, by arc length, wrapping, speed tables, hooks, and flocks that follow them.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <lauxlib.h>

#include "demo_util.h"
#include "test_util.h"

// An uneven route (long reaches, a tight bend) where a uniform Catmull-Rom spline would overshoot.
static const fbVec2 ROUTE[] = {{10, 10}, {80, 5}, {90, 12}, {95, 60}, {40, 70}, {12, 40}};
#define ROUTE_N ((int)(sizeof ROUTE / sizeof ROUTE[0]))

static fbPath make_path(bool closed, const fbSpeedKey *keys, int key_count, double start)
{
  fbPath p;
  char err[256];
  if (!fbPath_Init(&p, "route", ROUTE, ROUTE_N, closed, keys, key_count, start, err, sizeof err)) {
    fail_msg("%s", err);
  }
  return p;
}

// The length of the curve measured independently: a polyline through 20000 points per segment.
static double polyline_length(const fbPath *p)
{
  double sum = 0;
  for (int i = 0; i < p->segment_count; ++i) {
    fbVec2 prev = fbPath_SegmentPoint(p, i, 0, NULL);
    for (int k = 1; k <= 20000; ++k) {
      fbVec2 next = fbPath_SegmentPoint(p, i, k / 20000.0, NULL);
      sum += fbV_Length(fbV_Sub(next, prev));
      prev = next;
    }
  }
  return sum;
}

static double distance(fbVec2 a, fbVec2 b) { return fbV_Length(fbV_Sub(a, b)); }

// ---- the curve ----------------------------------------------------------------------------------

// Catmull-Rom interpolates: every segment starts at its control point and ends at the next, and
// the arc length where a segment starts gives that point back.
static void test_spline_passes_through_control_points(void **state)
{
  (void)state;
  for (int closed = 0; closed <= 1; ++closed) {
    fbPath p = make_path(closed, NULL, 0, 0);
    assert_int_equal(p.segment_count, closed ? ROUTE_N : ROUTE_N - 1);
    for (int i = 0; i < p.segment_count; ++i) {
      fbVec2 a = fbPath_SegmentPoint(&p, i, 0, NULL), b = fbPath_SegmentPoint(&p, i, 1, NULL);
      assert_near(distance(a, ROUTE[i]), 0, 1e-12);
      assert_near(distance(b, ROUTE[(i + 1) % ROUTE_N]), 0, 1e-9);
      assert_near(distance(fbPath_PointAt(&p, p.segments[i].start, NULL), ROUTE[i]), 0, 1e-9);
    }
    if (!closed) {
      assert_near(distance(fbPath_PointAt(&p, p.length, NULL), ROUTE[ROUTE_N - 1]), 0, 1e-9);
    }
    fbPath_Free(&p);
  }
}

// Barry and Goldman's pyramid for the segment P1 -> P2 at u in [0, 1], written out independently
// of the spline's Hermite form: t0 = 0, t_i+1 = t_i + |P_i+1 - P_i|^(1/2), t = t1 + u (t2 - t1).
static fbVec2 lerp_at(fbVec2 a, fbVec2 b, double ta, double tb, double t)
{
  return fbV_Add(fbV_Scale(a, (tb - t) / (tb - ta)), fbV_Scale(b, (t - ta) / (tb - ta)));
}

static fbVec2 barry_goldman(fbVec2 p0, fbVec2 p1, fbVec2 p2, fbVec2 p3, double u)
{
  double t0 = 0, t1 = t0 + sqrt(distance(p0, p1)), t2 = t1 + sqrt(distance(p1, p2)), t3 = t2 + sqrt(distance(p2, p3));
  double t = t1 + u * (t2 - t1);
  fbVec2 a1 = lerp_at(p0, p1, t0, t1, t), a2 = lerp_at(p1, p2, t1, t2, t), a3 = lerp_at(p2, p3, t2, t3, t);
  fbVec2 b1 = lerp_at(a1, a2, t0, t2, t), b2 = lerp_at(a2, a3, t1, t3, t);
  return lerp_at(b1, b2, t1, t2, t);
}

// The Hermite form is Barry and Goldman's centripetal pyramid, at every u of every inner segment.
static void test_spline_is_centripetal_catmull_rom(void **state)
{
  (void)state;
  fbPath p = make_path(true, NULL, 0, 0);
  for (int i = 0; i < ROUTE_N; ++i) {
    fbVec2 p0 = ROUTE[(i + ROUTE_N - 1) % ROUTE_N], p1 = ROUTE[i], p2 = ROUTE[(i + 1) % ROUTE_N],
           p3 = ROUTE[(i + 2) % ROUTE_N];
    for (int k = 0; k <= 20; ++k) {
      assert_near(distance(fbPath_SegmentPoint(&p, i, k / 20.0, NULL), barry_goldman(p0, p1, p2, p3, k / 20.0)), 0,
                  1e-9);
    }
  }
  fbPath_Free(&p);
}

// Why centripetal: a short step between two long reaches (a hairpin 1 unit wide, 10 long). The
// uniform spline's tangents there are half the long chords, (5, 0.5) and (-5, 0.5), and swing the
// curve out to x = 11.25 past the turn; the centripetal one keeps within 0.2 of it, and never
// stops (no cusp: |dp/du| > 0 all along).
static void test_centripetal_spline_keeps_to_its_points(void **state)
{
  (void)state;
  fbVec2 hairpin[] = {{0, 0}, {10, 0}, {10, 1}, {0, 1}};
  fbPath p;
  char err[256];
  assert_true(fbPath_Init(&p, "hairpin", hairpin, 4, false, NULL, 0, 0, err, sizeof err));
  double max_x = 0, min_speed = INFINITY;
  for (int i = 0; i < p.segment_count; ++i) {
    for (int k = 0; k <= 1000; ++k) {
      fbVec2 d, q = fbPath_SegmentPoint(&p, i, k / 1000.0, &d);
      max_x = fmax(max_x, q.x);
      min_speed = fmin(min_speed, fbV_Length(d));
    }
  }
  print_message("past the turn at x = 10: to x = %.3f (uniform: 11.25); slowest |dp/du| %.3f\n", max_x, min_speed);
  assert_true(max_x < 10.2);
  assert_true(min_speed > 0.5);
  fbPath_Free(&p);
}

// The arc-length table agrees with a fine polyline, and PointAt(s) is s along the curve: points
// 1/1000 of the length apart are that far apart (chords of a smooth curve, to 1e-4).
static void test_arc_length_parameterisation(void **state)
{
  (void)state;
  fbPath p = make_path(false, NULL, 0, 0);
  double fine = polyline_length(&p);
  print_message("length %.9f, polyline %.9f\n", p.length, fine);
  assert_near(p.length, fine, 1e-6 * fine);
  double ds = p.length / 1000;
  fbVec2 prev = fbPath_PointAt(&p, 0, NULL);
  for (int k = 1; k <= 1000; ++k) {
    fbVec2 next = fbPath_PointAt(&p, k * ds, NULL);
    assert_near(distance(prev, next), ds, 1e-4 * ds);
    prev = next;
  }
  fbPath_Free(&p);
}

// The object at a constant speed covers speed * t along the curve, and the same distance in every
// step: the true speed, not the spline parameter's.
static void test_constant_speed_between_samples(void **state)
{
  (void)state;
  fbSpeedKey v = {0, 5};
  fbPath p = make_path(false, &v, 1, 0);
  double dt = 0.01, travelled = 0;
  int steps = (int)(0.9 * p.length / 5 / dt);
  for (int k = 1; k <= steps; ++k) {
    fbVec2 before = p.p;
    fbPath_Advance(&p, (k - 1) * dt, k * dt);
    double step = distance(before, p.p);
    assert_near(step, 5 * dt, 1e-4 * 5 * dt);
    travelled += step;
    assert_near(p.s, 5 * k * dt, 1e-9);
    assert_near(p.speed, 5, 0);
  }
  print_message("%d steps of 0.05 units: %.9f travelled in chords, %.9f by arc length\n", steps, travelled, p.s);
  assert_near(travelled, p.s, 1e-4 * p.s);
  fbPath_Free(&p);
}

// Round a closed path and round again: s stays in [0, length), the steps across the join are
// as long as any other, and the curve and its tangent meet themselves there.
static void test_closed_path_wraps_continuously(void **state)
{
  (void)state;
  fbSpeedKey v = {0, 7};
  fbPath p = make_path(true, &v, 1, 0.5);
  double dt = 0.05;
  int wraps = 0;
  for (int k = 1; k <= (int)(3 * p.length / 7 / dt); ++k) {
    fbVec2 before = p.p;
    double s_before = p.s;
    fbPath_Advance(&p, (k - 1) * dt, k * dt);
    assert_true(p.s >= 0 && p.s < p.length);
    assert_near(distance(before, p.p), 7 * dt, 1e-3 * 7 * dt);
    wraps += p.s < s_before;
  }
  assert_true(wraps >= 2);
  fbVec2 t_end, t_start;
  fbVec2 end = fbPath_PointAt(&p, p.length - 1e-9, &t_end), start = fbPath_PointAt(&p, 0, &t_start);
  assert_near(distance(end, start), 0, 1e-6);
  assert_near(distance(t_end, t_start), 0, 1e-6);
  assert_near(distance(fbPath_PointAt(&p, p.length + 3, NULL), fbPath_PointAt(&p, 3, NULL)), 0, 1e-9);
  assert_near(distance(fbPath_PointAt(&p, -3, NULL), fbPath_PointAt(&p, p.length - 3, NULL)), 0, 1e-9);
  fbPath_Free(&p);
}

// A speed table: still until 2 s, up to 10 units/s by 6 s, held, then a sudden drop to 2 at 8 s
// (two keys at one time). The distance is the table's integral whatever the step, and the
// speed reported is the table's.
static void test_speed_table_is_followed(void **state)
{
  (void)state;
  fbSpeedKey keys[] = {{2, 0}, {6, 10}, {8, 10}, {8, 2}};
  // s(t): 0 up to 2 s; 5 (t - 2)^2 / 4 up to 6 s (20 at 6 s); then 10 per s (40 at 8 s); then 2 per s.
  double times[] = {1, 2, 4, 6, 7, 8, 9};
  double want[] = {0, 0, 5, 20, 30, 40, 42};
  double speeds[] = {0, 0, 5, 10, 10, 2, 2};
  double steps[] = {0.05, 0.0125, 0.25};
  for (int d = 0; d < 3; ++d) {
    fbPath p = make_path(true, keys, 4, 0);
    double dt = steps[d];
    int next = 0;
    for (int k = 1; next < 7; ++k) {
      fbPath_Advance(&p, (k - 1) * dt, k * dt);
      if (fabs(k * dt - times[next]) < 1e-9) {
        assert_near(p.s, want[next], 1e-9);
        assert_near(p.speed, speeds[next], 1e-9);
        next++;
      }
      assert_true(k * dt < 10);
    }
    fbPath_Free(&p);
  }
  fbPath p = make_path(true, keys, 4, 0);
  assert_near(fbPath_TableDistance(&p, 0, 9), 42, 1e-12);
  assert_near(fbPath_TableDistance(&p, 5, 7.5), 8.75 + 15, 1e-12);  // 5 -> 6 s: 7.5 up to 10; then 1.5 s at 10
  assert_near(fbPath_TableSpeed(&p, 100), 2, 0);
  fbPath_Free(&p);
}

// An open path's object stops at the last point and stays there, at speed 0.
static void test_open_path_stops_at_the_end(void **state)
{
  (void)state;
  fbSpeedKey v = {0, 20};
  fbPath p = make_path(false, &v, 1, 0.75);
  double dt = 0.05;
  double arrived = NAN;
  for (int k = 1; k <= 200; ++k) {
    fbPath_Advance(&p, (k - 1) * dt, k * dt);
    if (p.speed == 0 && isnan(arrived)) {
      arrived = k * dt;
    }
  }
  print_message("from 3/4 of %.1f units at 20 units/s: at the end after %.2f s\n", p.length, arrived);
  assert_near(arrived, 0.25 * p.length / 20, dt);  // in the first step that gets there
  assert_near(p.s, p.length, 0);
  assert_near(distance(p.p, ROUTE[ROUTE_N - 1]), 0, 1e-9);
  assert_near(p.speed, 0, 0);
  fbPath_Free(&p);
}

// Every mistake a scenario can make in a path is refused, naming the field.
static void test_bad_paths_are_refused(void **state)
{
  (void)state;
  fbPath p;
  char err[256];
  fbVec2 twice[] = {{0, 0}, {5, 5}, {5, 5}};
  fbVec2 looped[] = {{0, 0}, {5, 5}, {9, 0}, {0, 0}};
  fbVec2 nan_point[] = {{0, 0}, {NAN, 5}};
  fbSpeedKey backwards[] = {{5, 1}, {2, 3}};
  fbSpeedKey negative = {0, -1};
  assert_false(fbPath_Init(&p, "r", ROUTE, 2, true, NULL, 0, 0, err, sizeof err));
  assert_non_null(strstr(err, "points: a closed path needs 3"));
  assert_false(fbPath_Init(&p, "r", ROUTE, 1, false, NULL, 0, 0, err, sizeof err));
  assert_non_null(strstr(err, "points: an open path needs 2"));
  assert_false(fbPath_Init(&p, "r", twice, 3, false, NULL, 0, 0, err, sizeof err));
  assert_non_null(strstr(err, "points[3]: the same as points[2]"));
  assert_false(fbPath_Init(&p, "r", looped, 4, true, NULL, 0, 0, err, sizeof err));
  assert_non_null(strstr(err, "points[4]: the same as points[1]"));
  assert_false(fbPath_Init(&p, "r", nan_point, 2, false, NULL, 0, 0, err, sizeof err));
  assert_non_null(strstr(err, "points[2]: expected finite x and y"));
  assert_false(fbPath_Init(&p, "r", ROUTE, ROUTE_N, false, backwards, 2, 0, err, sizeof err));
  assert_non_null(strstr(err, "speed[2]: time 2 comes before"));
  assert_false(fbPath_Init(&p, "r", ROUTE, ROUTE_N, false, &negative, 1, 0, err, sizeof err));
  assert_non_null(strstr(err, "speed: the speed must be between 0"));
  assert_false(fbPath_Init(&p, "r", ROUTE, ROUTE_N, false, NULL, 0, 1.5, err, sizeof err));
  assert_non_null(strstr(err, "start: "));
}

// ---- in a running world -------------------------------------------------------------------------

static double seen_number(const char *key)
{
  lua_State *L = sim.hooks.host.L;
  lua_getfield(L, LUA_REGISTRYINDEX, FB_LAST_ENV);
  lua_getfield(L, -1, "seen");
  lua_getfield(L, -1, key);
  double v = lua_toboolean(L, -1) && !lua_isnumber(L, -1) ? 1 : lua_tonumber(L, -1);
  lua_pop(L, 3);
  return v;
}

static const char *seen_string(const char *key)
{
  lua_State *L = sim.hooks.host.L;
  static char s[512];
  lua_getfield(L, LUA_REGISTRYINDEX, FB_LAST_ENV);
  lua_getfield(L, -1, "seen");
  lua_getfield(L, -1, key);
  snprintf(s, sizeof s, "%s", luaL_tolstring(L, -1, NULL));
  lua_pop(L, 4);
  return s;
}

// What a scenario says is what the world has: the path, its speed table, the object at its start;
// rules (fb.path) and hooks see the object where it is; fb.set_path_speed overrides the table
// until it hands the speed back.
static void test_scenario_rules_and_hooks_see_the_path(void **state)
{
  (void)state;
  load("tests/data/path_hooks.lua");
  const fbPaths *ps = &sim.world.paths;
  assert_int_equal(ps->count, 1);
  const fbPath *p = &ps->items[0];
  assert_string_equal(p->name, "route");
  assert_false(p->closed);
  assert_int_equal(p->point_count, 4);
  assert_int_equal(p->key_count, 2);
  assert_near(distance(p->p, fbV(10, 50)), 0, 1e-12);
  double dt = sim.world.dt;
  for (int k = 1; k <= 300; ++k) {
    fbVec2 before = p->p, tangent = p->tangent;
    double s = p->s, v = p->speed;
    step();
    int i = fbWorld_FindAgent(&sim.world, 1);
    // The rule ran at the step's start and wrote its fields for the next step: the object then.
    assert_near(field(i, "found"), 1, 0);
    assert_near(field(i, "px"), before.x, 0);
    assert_near(field(i, "py"), before.y, 0);
    assert_near(field(i, "tx"), tangent.x, 0);
    assert_near(field(i, "ty"), tangent.y, 0);
    assert_near(field(i, "pspeed"), v, 0);
    // The hook ran after the object moved: it sees it now.
    assert_near(seen_number("x"), p->p.x, 0);
    assert_near(seen_number("y"), p->p.y, 0);
    assert_near(seen_number("speed"), p->speed, 0);
    double t = k * dt;
    double table = t < 20 ? 2 + 4 * (t - dt / 2) / 20 : 6;  // the table's mean speed over the step
    if (k <= 100 || k > 200) {
      assert_near(p->s - s, table * dt, 1e-9);
    } else {
      assert_near(p->s - s, 4 * dt, 1e-9);  // set at step 100, held until step 200
    }
  }
  assert_near(seen_number("missing"), 1, 0);
  assert_near(seen_number("unknown_ok"), 0, 0);
  assert_non_null(strstr(seen_string("unknown"), "unknown path 'nowhere'"));
  assert_near(seen_number("negative_ok"), 0, 0);
  assert_non_null(strstr(seen_string("negative"), "speed must be between 0 and 1e6"));
  unload();
}

// Gamlen 3.5: the flock follows the path object. The flock's centre keeps near the object as it
// goes round a closed path (more than once), and without the rule it does not.
static void run_flock(double follow_weight, double *mean_gap, double *max_gap, double *turns)
{
  load("tests/data/path_flock.lua");
  int bird = species("bird");
  fbSim_SetWeight(&sim, bird, fbSim_FindRule(&sim, bird, "follow_path"), follow_weight);
  const fbPath *p = &sim.world.paths.items[0];
  const fbAgents *a = &sim.world.agents;
  double gap = 0, angle = 0, last = NAN;
  *max_gap = 0;
  int samples = 0;
  for (int k = 1; k <= 2600; ++k) {
    step();
    double cx = 0, cy = 0;
    for (int i = 0; i < a->count; ++i) {
      cx += a->px[i] / a->count;
      cy += a->py[i] / a->count;
    }
    if (k <= 200) {
      continue;  // gathering
    }
    gap += distance(fbV(cx, cy), p->p);
    *max_gap = fmax(*max_gap, distance(fbV(cx, cy), p->p));
    samples++;
    double now = atan2(cy - 120, cx - 120);
    if (!isnan(last)) {
      angle += remainder(now - last, 2 * FB_PI);
    }
    last = now;
  }
  *mean_gap = gap / samples;
  *turns = angle / (2 * FB_PI);
  unload();
}

static void test_flock_follows_the_path_object(void **state)
{
  (void)state;
  double gap, most, turns, gap_off, most_off, turns_off;
  run_flock(1, &gap, &most, &turns);
  run_flock(0, &gap_off, &most_off, &turns_off);
  print_message("with follow_path: centre %.1f units from the object on average (at most %.1f), %.2f turns; "
                "without: %.1f (%.1f), %.2f turns\n", gap, most, turns, gap_off, most_off, turns_off);
  assert_true(gap < 25);
  assert_true(most < 40);
  assert_true(turns > 1.2);  // 120 s at 6 units/s round 440 units: 1.6 turns for the object
  assert_true(gap_off > 3 * gap);
  assert_true(fabs(turns_off) < 0.8);
}

// Gamlen 3.8: a member that sees no other heads for the path object, at full acceleration, and
// gets there; with the rule off it stays lost.
static double lone_distance(double refind_weight, fbVec2 *first_output)
{
  load("tests/data/path_refind.lua");
  int herd = species("herd");
  int refind = fbSim_FindRule(&sim, herd, "refind_path");
  fbSim_SetWeight(&sim, herd, refind, refind_weight);
  uint32_t lone = 9;  // placed by hand after the 8 spawned
  fbSim_Inspect(&sim, lone);
  step();
  assert_true(fbSim_InspectOutput(&sim, refind, first_output));
  for (int k = 0; k < 600; ++k) {
    step();
  }
  int i = fbWorld_FindAgent(&sim.world, lone);
  double d = distance(fbV(sim.world.agents.px[i], sim.world.agents.py[i]), sim.world.paths.items[0].p);
  unload();
  return d;
}

static void test_refind_heads_for_the_path_object(void **state)
{
  (void)state;
  fbVec2 out, ignored;
  double with = lone_distance(1, &out);
  double without = lone_distance(0, &ignored);
  print_message("first output (%.3f, %.3f); after 30 s the lost member is %.1f units from the object, %.1f "
                "without refind_path\n", out.x, out.y, with, without);
  // From (20, 20) toward (100, 100), at rest: all of max_accel 12 along (1, 1) / sqrt 2.
  assert_near(out.x, 12 / sqrt(2), 1e-9);
  assert_near(out.y, 12 / sqrt(2), 1e-9);
  assert_true(with < 15);  // at the edge of the herd round the object, which it sees again
  assert_true(without > 100);
}

// ---- determinism and reloads --------------------------------------------------------------------

static uint64_t run_hash(const char *path, int threads, int steps)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.seed = 5;
  o.threads = threads;
  char err[2048];
  if (!fbSim_Load(&sim, path, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  sim_loaded = true;
  for (int k = 0; k < steps; ++k) {
    step();
  }
  uint64_t h = fbSim_Hash(&sim);
  unload();
  return h;
}

// Path objects move on one thread between steps: a seed gives the same run on 1 and 3 threads.
static void test_same_seed_same_hash_on_any_thread_count(void **state)
{
  (void)state;
  static const char *const scenarios[] = {"scripts/dragonflies_path.lua", "tests/data/path_flock.lua"};
  for (int k = 0; k < 2; ++k) {
    uint64_t one = run_hash(scenarios[k], 1, 1200), three = run_hash(scenarios[k], 3, 1200);
    if (one != three) {
      fail_msg("%s: 1 thread %016llx, 3 threads %016llx", scenarios[k], (unsigned long long)one,
               (unsigned long long)three);
    }
  }
}

// A scenario reload rebuilds the paths; an object whose path keeps its name keeps its place.
static void test_reload_keeps_the_object_in_place(void **state)
{
  (void)state;
  load("scripts/dragonflies_path.lua");
  for (int k = 0; k < 900; ++k) {
    step();
  }
  fbVec2 before = sim.world.paths.items[0].p;
  double speed = sim.world.paths.items[0].speed;
  static fbSim fresh;
  fbRunOptions o = sim.options;
  o.no_spawn = true;
  char err[2048];
  if (!fbSim_Load(&fresh, sim.path, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  assert_near(fresh.world.paths.items[0].s, 0, 0);  // a fresh world starts at the start
  fbSim_Adopt(&sim, &fresh);
  fbSim_Free(&fresh);
  assert_int_equal(sim.world.paths.count, 1);
  assert_near(distance(sim.world.paths.items[0].p, before), 0, 1e-9);
  assert_near(sim.world.paths.items[0].speed, speed, 1e-12);
  fbVec2 at = sim.world.paths.items[0].p;
  step();
  assert_near(distance(sim.world.paths.items[0].p, at), speed * sim.world.dt, 0.01);
  unload();
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spline_passes_through_control_points),
      cmocka_unit_test(test_spline_is_centripetal_catmull_rom),
      cmocka_unit_test(test_centripetal_spline_keeps_to_its_points),
      cmocka_unit_test(test_arc_length_parameterisation),
      cmocka_unit_test(test_constant_speed_between_samples),
      cmocka_unit_test(test_closed_path_wraps_continuously),
      cmocka_unit_test(test_speed_table_is_followed),
      cmocka_unit_test(test_open_path_stops_at_the_end),
      cmocka_unit_test(test_bad_paths_are_refused),
      cmocka_unit_test_teardown(test_scenario_rules_and_hooks_see_the_path, demo_teardown),
      cmocka_unit_test_teardown(test_flock_follows_the_path_object, demo_teardown),
      cmocka_unit_test_teardown(test_refind_heads_for_the_path_object, demo_teardown),
      cmocka_unit_test_teardown(test_same_seed_same_hash_on_any_thread_count, demo_teardown),
      cmocka_unit_test_teardown(test_reload_keeps_the_object_in_place, demo_teardown),
  };
  return fb_run_tests(tests);
}
