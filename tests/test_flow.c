// test_flow.c — flow fields (bilinear sampling, PNG and function sources), regions (the containment query), and the flow_maze demo: walkers reach the exit, nobody leaves the maze, guards hold their offset round corners.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>
#include <cmocka.h>
#include <stb_image_write.h>

#include "demo_util.h"
#include "test_util.h"

static const char *tmp_path(const char *name)
{
  static char path[4][256];
  static int next;
  char *out = path[next++ % 4];
  snprintf(out, 256, "/tmp/fb_test_flow_%ld_%s", (long)getpid(), name);
  return out;
}

// ---- bilinear sampling ------------------------------------------------------------------------------

// A 3 x 2 grid over 30 x 20: cells 10 units square, sample (i, j) at (10 i + 5, 10 j + 5) holding
// vx = i + 10 j, vy = 2 j - i.
static void make_grid(fbFlowField *f)
{
  double vx[6], vy[6];
  for (int j = 0; j < 2; ++j) {
    for (int i = 0; i < 3; ++i) {
      vx[j * 3 + i] = i + 10 * j;
      vy[j * 3 + i] = 2 * j - i;
    }
  }
  char err[256];
  assert_true(fbFlowField_Init(f, "grid", 3, 2, 30, 20, vx, vy, err, sizeof err));
}

static void test_bilinear_by_hand(void **state)
{
  (void)state;
  fbFlowField f;
  make_grid(&f);
  fbVec2 v = fbFlowField_Sample(&f, 15, 5);  // on sample (1, 0): exactly it
  assert_near(v.x, 1, 1e-12);
  assert_near(v.y, -1, 1e-12);
  v = fbFlowField_Sample(&f, 10, 10);  // halfway between (0,0), (1,0), (0,1), (1,1): their mean
  assert_near(v.x, (0 + 1 + 10 + 11) / 4.0, 1e-12);
  assert_near(v.y, (0 - 1 + 2 + 1) / 4.0, 1e-12);
  v = fbFlowField_Sample(&f, 22.5, 8);  // u = 1.75, v = 0.3: i = 1, fx = 0.75; j = 0, fy = 0.3
  // vx = 0.7 (0.25*1 + 0.75*2) + 0.3 (0.25*11 + 0.75*12) = 1.225 + 3.525 = 4.75
  assert_near(v.x, 4.75, 1e-12);
  // vy = 0.7 (0.25*-1 + 0.75*-2) + 0.3 (0.25*1 + 0.75*0) = -1.225 + 0.075 = -1.15
  assert_near(v.y, -1.15, 1e-12);
  fbFlowField_Free(&f);
}

static void test_bilinear_edges_hold_the_outer_samples(void **state)
{
  (void)state;
  fbFlowField f;
  make_grid(&f);
  fbVec2 v = fbFlowField_Sample(&f, 0, 0);  // the corner, half a cell beyond sample (0, 0)
  assert_near(v.x, 0, 1e-12);
  assert_near(v.y, 0, 1e-12);
  v = fbFlowField_Sample(&f, 30, 20);  // the far corner: sample (2, 1)
  assert_near(v.x, 12, 1e-12);
  assert_near(v.y, 0, 1e-12);
  v = fbFlowField_Sample(&f, 2, 12);  // left of the first column: along it, fy = 0.7
  assert_near(v.x, 7, 1e-12);
  assert_near(v.y, 1.4, 1e-12);
  v = fbFlowField_Sample(&f, -50, 1e6);  // far outside: the nearest corner sample (0, 1)
  assert_near(v.x, 10, 1e-12);
  assert_near(v.y, 2, 1e-12);
  v = fbFlowField_Sample(&f, NAN, 5);  // never a read outside the grid
  assert_true(isfinite(v.x) && isfinite(v.y));
  fbFlowField_Free(&f);
}

static void test_one_row_is_linear_along_it(void **state)
{
  (void)state;
  double vx[3] = {0, 3, 9}, vy[3] = {1, 1, 1};
  fbFlowField f;
  char err[256];
  assert_true(fbFlowField_Init(&f, "row", 3, 1, 30, 10, vx, vy, err, sizeof err));
  fbVec2 v = fbFlowField_Sample(&f, 20, 9.5);  // between samples 1 and 2, any y
  assert_near(v.x, 6, 1e-12);
  assert_near(v.y, 1, 1e-12);
  fbFlowField_Free(&f);
  vx[1] = NAN;
  assert_false(fbFlowField_Init(&f, "row", 3, 1, 30, 10, vx, vy, err, sizeof err));
  print_message("%s\n", err);
  assert_non_null(strstr(err, "at (15, 5)"));
}

// ---- PNG and function sources ---------------------------------------------------------------------

// The channel bytes of pixel (i, j) of the 4 x 3 test image: every value 0..255 reachable.
static unsigned char red(int i, int j) { return (unsigned char)(40 * i + 70 * j + 1); }
static unsigned char green(int i, int j) { return (unsigned char)(255 - 50 * i - 30 * j); }

static const char *write_field_png(void)
{
  unsigned char rgb[4 * 3 * 3];
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 4; ++i) {
      rgb[3 * (j * 4 + i)] = red(i, j);
      rgb[3 * (j * 4 + i) + 1] = green(i, j);
      rgb[3 * (j * 4 + i) + 2] = 0;
    }
  }
  const char *path = tmp_path("field.png");
  assert_true(stbi_write_png(path, 4, 3, 3, rgb, 4 * 3));
  return path;
}

// The PNG's encoding by hand: 128 is 0, 255 is +speed, 1 is -speed.
static void test_png_encoding(void **state)
{
  (void)state;
  const char *path = write_field_png();
  fbFlowField f;
  char err[512];
  assert_true(fbFlowField_LoadPng(&f, "png", path, 5, 40, 30, err, sizeof err));
  assert_int_equal(f.cols, 4);
  assert_int_equal(f.rows, 3);
  fbVec2 v = fbFlowField_Sample(&f, 5, 5);  // pixel (0, 0): red 1, green 255
  assert_near(v.x, -5, 1e-12);
  assert_near(v.y, 5, 1e-12);
  v = fbFlowField_Sample(&f, 15, 25);  // pixel (1, 2): red 181, green 145
  assert_near(v.x, 5 * 53 / 127.0, 1e-12);
  assert_near(v.y, 5 * 17 / 127.0, 1e-12);
  fbFlowField_Free(&f);
  unlink(path);
}

// A scenario with the same field twice, from the PNG and from a function giving the same
// velocities at the same cell centres: they agree everywhere, between samples too.
static void test_png_and_function_agree(void **state)
{
  (void)state;
  const char *png = write_field_png();
  const char *scenario = tmp_path("sources.lua");
  FILE *f = fopen(scenario, "w");
  assert_non_null(f);
  fprintf(f,
          "local function v(c) return 5 * math.max(-1, (c - 128) / 127) end\n"
          "return {\n"
          "  world = { width = 40, height = 30 },\n"
          "  flow_fields = {\n"
          "    from_png = { png = \"%s\", speed = 5 },\n"
          "    from_fn = { cell = 10, fn = function(x, y)\n"
          "      local i, j = (x - 5) // 10, (y - 5) // 10\n"
          "      return v((40 * i + 70 * j + 1) %% 256), v((255 - 50 * i - 30 * j) %% 256)\n"
          "    end },\n"
          "  },\n"
          "  species = { { name = \"boid\", count = 0 } },\n"
          "}\n",
          png);
  fclose(f);
  load(scenario);
  const fbFlowFields *fs = &sim.world.flows;
  assert_int_equal(fs->count, 2);
  const fbFlowField *a = &fs->items[fbFlowFields_Find(fs, "from_png")], *b = &fs->items[fbFlowFields_Find(fs, "from_fn")];
  assert_int_equal(b->cols, 4);
  assert_int_equal(b->rows, 3);
  double worst = 0;
  for (double y = -2; y <= 32; y += 0.7) {
    for (double x = -2; x <= 42; x += 0.9) {
      fbVec2 p = fbFlowField_Sample(a, x, y), q = fbFlowField_Sample(b, x, y);
      worst = fmax(worst, fmax(fabs(p.x - q.x), fabs(p.y - q.y)));
    }
  }
  print_message("PNG and function fields differ by at most %g\n", worst);
  assert_true(worst < 1e-12);
  unload();
  unlink(png);
  unlink(scenario);
}

// Loads a scenario of one flow field `body` (and the PNG at png, if any) and checks the message.
static void expect_refused(const char *body, const char *want)
{
  const char *scenario = tmp_path("bad.lua");
  FILE *f = fopen(scenario, "w");
  assert_non_null(f);
  fprintf(f, "return { world = { width = 40, height = 30 }, %s, species = { { name = \"b\", count = 1 } } }\n", body);
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

static void test_bad_fields_are_refused_by_name(void **state)
{
  (void)state;
  expect_refused("flow_fields = { wind = { png = \"/nonexistent/wind.png\", speed = 2 } }", "flow_fields.wind.png: ");
  expect_refused("flow_fields = { wind = { png = \"x.png\" } }", "flow_fields.wind.speed: ");
  expect_refused("flow_fields = { wind = { cell = 1 } }", "flow_fields.wind: give either png");
  expect_refused("flow_fields = { wind = { cell = 10, fn = function() return 'east', 1 end } }",
                 "flow_fields.wind.fn: at (5, 5): returned a string and a number");
  expect_refused("flow_fields = { wind = { cell = 10, fn = function(x) return x > 20 and 0/0 or 1, 0 end } }",
                 "flow_fields.wind.fn: at (25, 5): returned (");
  expect_refused("flow_fields = { wind = { fn = function() error('no wind') end } }", "no wind");
  expect_refused("flow_fields = { wind = { cell = 0.001, fn = function() return 0, 0 end } }",
                 "flow_fields.wind.cell: 0.001 units over a 40x30 world makes 1200000000 samples");
  expect_refused("flow_fields = { wind = { fn = function() return 0, 0 end, speeed = 1 } }", "flow_fields.wind.speeed");
  expect_refused("flow_fields = { 'a' }", "flow_fields: keys must be names");
  expect_refused("regions = { pen = { {0, 0}, {10, 10}, {10, 0}, {0, 12} } }", "regions.pen: the edge from point");
  expect_refused("regions = { pen = { {0, 0}, {10, 0}, {'x', 5} } }", "regions.pen[3]");

  const char *grey = tmp_path("grey.png");
  unsigned char px[4] = {0, 64, 128, 255};
  assert_true(stbi_write_png(grey, 2, 2, 1, px, 2));
  char body[512];
  snprintf(body, sizeof body, "flow_fields = { wind = { png = \"%s\", speed = 2 } }", grey);
  expect_refused(body, "a greyscale PNG");
  const char *tiny = tmp_path("tiny.png");
  unsigned char one[3] = {128, 128, 0};
  assert_true(stbi_write_png(tiny, 1, 1, 3, one, 3));
  snprintf(body, sizeof body, "flow_fields = { wind = { png = \"%s\", speed = 2 } }", tiny);
  expect_refused(body, "image is 1x1; a flow field needs 2x2");
  unlink(grey);
  unlink(tiny);
}

// ---- regions ------------------------------------------------------------------------------------

// A 20 x 20 square with a notch 8 wide and 10 deep cut into its bottom edge (y down), listed
// clockwise on screen; not convex.
static void make_notched(fbRegion *r)
{
  const fbVec2 v[] = {{0, 0}, {20, 0}, {20, 20}, {14, 20}, {14, 10}, {6, 10}, {6, 20}, {0, 20}};
  char err[256];
  assert_true(fbRegion_Init(r, "pen", v, 8, err, sizeof err));
}

static void test_region_query_by_hand(void **state)
{
  (void)state;
  fbRegion r;
  make_notched(&r);
  fbRegionQuery q = fbRegion_Query(&r, fbV(3, 5));  // inside, nearest the left edge
  assert_true(q.inside);
  assert_near(q.distance, 3, 1e-12);
  assert_near(q.closest.x, 0, 1e-12);
  assert_near(q.normal.x, 1, 1e-12);  // into the region
  assert_near(q.normal.y, 0, 1e-12);
  q = fbRegion_Query(&r, fbV(10, 13));  // in the notch: outside, 3 below its top edge
  assert_false(q.inside);
  assert_near(q.distance, 3, 1e-12);
  assert_near(q.normal.y, -1, 1e-12);  // back up into the region
  q = fbRegion_Query(&r, fbV(3, 15));  // inside the left leg, beside the notch
  assert_true(q.inside);
  assert_near(q.distance, 3, 1e-12);
  q = fbRegion_Query(&r, fbV(17, 17));  // inside the right leg, 3 from the notch and from the right edge
  assert_true(q.inside);
  assert_near(q.distance, 3, 1e-12);
  q = fbRegion_Query(&r, fbV(-3, -4));  // outside past the corner (0, 0): the normal turns round it
  assert_false(q.inside);
  assert_near(q.distance, 5, 1e-12);
  assert_near(q.normal.x, 0.6, 1e-12);
  assert_near(q.normal.y, 0.8, 1e-12);
  q = fbRegion_Query(&r, fbV(10, 0));  // on the top edge: that edge's inward normal
  assert_near(q.distance, 0, 1e-12);
  assert_near(q.normal.x, 0, 1e-12);
  assert_near(q.normal.y, 1, 1e-12);
  fbRegion_Free(&r);
}

static void test_region_normal_points_in_for_either_winding(void **state)
{
  (void)state;
  const fbVec2 cw[] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}}, ccw[] = {{0, 0}, {0, 10}, {10, 10}, {10, 0}};
  fbRegion a, b;
  char err[256];
  assert_true(fbRegion_Init(&a, "a", cw, 4, err, sizeof err));
  assert_true(fbRegion_Init(&b, "b", ccw, 4, err, sizeof err));
  for (int k = 0; k < 2; ++k) {
    fbRegionQuery q = fbRegion_Query(k ? &b : &a, fbV(10, 4));  // on the right edge
    assert_near(q.normal.x, -1, 1e-12);
    assert_near(q.normal.y, 0, 1e-12);
  }
  fbRegion_Free(&a);
  fbRegion_Free(&b);
  const fbVec2 same[] = {{0, 0}, {10, 0}, {10, 0}, {0, 10}};
  assert_false(fbRegion_Init(&a, "c", same, 4, err, sizeof err));
  print_message("%s\n", err);
  const fbVec2 flat[] = {{0, 0}, {5, 0}, {10, 0}};
  assert_false(fbRegion_Init(&a, "d", flat, 3, err, sizeof err));
  print_message("%s\n", err);
}

// ---- containment against a push ----------------------------------------------------------------

// tests/data/flow_contain.lua, seed 1, 60 s: a spiral field carries 60 walkers outward against a
// notched (non-convex) region. With stay_inside nobody ever leaves, nor touches the edge (body
// radius 0.75); with its weight 0 the field takes every one of them out.
static void test_containment_holds_against_the_field(void **state)
{
  (void)state;
  load("tests/data/flow_contain.lua");
  int outside_ever = 0;
  double nearest = INFINITY;
  for (int s = 0; s < 1200; ++s) {
    step();
    outside_ever += (int)metric("outside");
    nearest = fmin(nearest, metric("nearest_edge"));
  }
  unload();
  load_with("tests/data/flow_contain.lua", "walker.stay_inside.weight=0");
  for (int s = 0; s < 1200; ++s) {
    step();
  }
  int outside_without = (int)metric("outside");
  print_message("with stay_inside: outside ever %d, nearest approach to the edge %.2f; without: %d of 60 outside\n",
                outside_ever, nearest, outside_without);
  assert_int_equal(outside_ever, 0);
  assert_true(nearest > 0.75);
  assert_true(outside_without >= 50);
  unload();
}

// ---- the demo ------------------------------------------------------------------------------------

#define GUARDS 6
#define OFFSET 3.0  // the scenario's follow_wall offset

// The distance from agent i to the nearest obstacle surface.
static double wall_distance(int i)
{
  const fbAgents *a = &sim.world.agents;
  double d = INFINITY;
  int index;
  fbObstacles_Nearest(&sim.world.obstacles, fbV(a->px[i], a->py[i]), 1e9, &index, &d);
  return d;
}

/*
 * scripts/flow_maze.lua, seed 1, 120 s (2400 steps): what a user watches for.
 * - at least 90% of the 120 walkers reach the exit within 110 s (the shortest route is about 470
 *   units, 78 s at the field's 6 units/s);
 * - no agent is ever outside the maze's outline (the outside metric, every step);
 * - after 5 s of settling, every guard stays within 0.8 units of its 3-unit offset and the guards'
 *   mean gap (the wall_gap metric) is under 0.25 units;
 * - every guard turns at least a full circle in total: it has gone round its pillar's corners.
 */
static void test_flow_maze(void **state)
{
  (void)state;
  load("scripts/flow_maze.lua");
  int guard = species("guard");
  double turned[GUARDS] = {0}, worst_gap = 0, gap_sum = 0;
  int gap_rows = 0, reached_at_110 = -1, outside_ever = 0;
  uint32_t ids[GUARDS];
  int g = 0;
  for (int i = 0; i < sim.world.agents.count && g < GUARDS; ++i) {
    if (sim.world.agents.species[i] == guard) {
      ids[g++] = sim.world.agents.id[i];
    }
  }
  assert_int_equal(g, GUARDS);
  double hx[GUARDS], hy[GUARDS];
  for (int k = 0; k < GUARDS; ++k) {
    int i = fbWorld_FindAgent(&sim.world, ids[k]);
    hx[k] = sim.world.agents.hx[i];
    hy[k] = sim.world.agents.hy[i];
  }
  for (int s = 1; s <= 2400; ++s) {
    step();
    outside_ever += (int)metric("outside");
    for (int k = 0; k < GUARDS; ++k) {
      int i = fbWorld_FindAgent(&sim.world, ids[k]);
      assert_true(i >= 0);
      double nx = sim.world.agents.hx[i], ny = sim.world.agents.hy[i];
      turned[k] += atan2(hx[k] * ny - hy[k] * nx, hx[k] * nx + hy[k] * ny);
      hx[k] = nx;
      hy[k] = ny;
      if (s > 100) {
        worst_gap = fmax(worst_gap, fabs(wall_distance(i) - OFFSET));
      }
    }
    if (s > 100) {
      gap_sum += metric("wall_gap");
      gap_rows++;
    }
    if (s == 2200) {
      reached_at_110 = (int)metric("reached");
    }
  }
  double least_turn = INFINITY;
  for (int k = 0; k < GUARDS; ++k) {
    least_turn = fmin(least_turn, fabs(turned[k]));
  }
  print_message("reached by 110 s: %d of 120; outside ever: %d; guards' gap: mean %.3f, worst %.3f; least total "
                "turn of a guard %.1f rad\n",
                reached_at_110, outside_ever, gap_sum / gap_rows, worst_gap, least_turn);
  assert_true(reached_at_110 >= 108);
  assert_int_equal(outside_ever, 0);
  assert_true(gap_sum / gap_rows < 0.25);
  assert_true(worst_gap < 0.8);
  assert_true(least_turn > 2 * FB_PI);
  unload();
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bilinear_by_hand),
      cmocka_unit_test(test_bilinear_edges_hold_the_outer_samples),
      cmocka_unit_test(test_one_row_is_linear_along_it),
      cmocka_unit_test(test_png_encoding),
      cmocka_unit_test_teardown(test_png_and_function_agree, demo_teardown),
      cmocka_unit_test(test_bad_fields_are_refused_by_name),
      cmocka_unit_test(test_region_query_by_hand),
      cmocka_unit_test(test_region_normal_points_in_for_either_winding),
      cmocka_unit_test_teardown(test_containment_holds_against_the_field, demo_teardown),
      cmocka_unit_test_teardown(test_flow_maze, demo_teardown),
  };
  return fb_run_tests(tests);
}
