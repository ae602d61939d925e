// test_render.c — headless pictures: fbRender_SavePng with no display, checked pixel by pixel.
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stb_image.h>
#include <string.h>
#include <unistd.h>

#define FB_RENDER_SDL
#include "render.h"

#define W 800
#define H 600

static fbSim sim;
static char err[4096];
static char png[256];
static unsigned char *pixels;

// Loads a scenario, runs it a little and draws it to a PNG, then reads the PNG back.
static void picture(const char *scenario, int steps)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.headless = true;
  if (!fbSim_Load(&sim, scenario, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  for (int k = 0; k < steps; ++k) {
    assert_true(fbSim_Step(&sim));
  }
  snprintf(png, sizeof png, "/tmp/flockbox_test_render_%d.png", (int)getpid());
  if (!fbRender_SavePng(&sim, png, W, H, err, sizeof err)) {
    fail_msg("%s", err);
  }
  int w, h, n;
  pixels = stbi_load(png, &w, &h, &n, 3);
  assert_non_null(pixels);
  assert_int_equal(w, W);
  assert_int_equal(h, H);
}

static int teardown(void **state)
{
  (void)state;
  stbi_image_free(pixels);
  pixels = NULL;
  unlink(png);
  fbSim_Free(&sim);
  return 0;
}

static const unsigned char *pixel_at(fbVec2 world)
{
  fbCamera cam;
  fbCamera_Fit(&cam, sim.world.width, sim.world.height, (SDL_Rect){0, 0, W, H}, 8);  // as fbRender_SavePng fits it
  fbVec2 s = fbCamera_ToScreen(&cam, world);
  int x = (int)s.x, y = (int)s.y;
  assert_true(x >= 0 && y >= 0 && x < W && y < H);
  return pixels + 3 * ((size_t)y * W + x);
}

static bool near(const unsigned char *p, SDL_Color c, int tolerance)
{
  return abs(p[0] - c.r) <= tolerance && abs(p[1] - c.g) <= tolerance && abs(p[2] - c.b) <= tolerance;
}

// The share of agents of `species` whose centre pixel has the colour they are drawn in.
static double agents_in_their_colour(int species)
{
  const fbAgents *a = &sim.world.agents;
  int leader = fbWorld_FindField(&sim.world, "leader");
  int n = 0, hits = 0;
  for (int i = 0; i < a->count; ++i) {
    if (a->species[i] == species) {
      n++;
      hits += near(pixel_at(fbV(a->px[i], a->py[i])), fbRender_AgentColour(&sim.world, i, leader), 8);
    }
  }
  assert_true(n > 0);
  return (double)hits / n;
}

static void test_picture_without_display(void **state)
{
  (void)state;
  unsetenv("DISPLAY");
  unsetenv("WAYLAND_DISPLAY");
  unsetenv("SDL_VIDEODRIVER");
  picture("tests/data/view_test.lua", 40);
  // Terrain: shaded by height, so far from uniform. Count distinct greys on a coarse lattice.
  int distinct = 0;
  unsigned char seen[256] = {0};
  for (int y = 20; y < H - 20; y += 7) {
    for (int x = 20; x < W - 20; x += 7) {
      const unsigned char *p = pixels + 3 * ((size_t)y * W + x);
      int grey = (p[0] + p[1] + p[2]) / 3;
      distinct += !seen[grey];
      seen[grey] = 1;
    }
  }
  assert_true(distinct > 40);
  // Agents are where the sim has them, in their species' colours (overlaps may hide a few).
  assert_true(agents_in_their_colour(0) > 0.8);
  assert_true(agents_in_their_colour(1) > 0.8);
  // Leaders red, the player green.
  const fbAgents *a = &sim.world.agents;
  int leader = fbWorld_FindField(&sim.world, "leader");
  assert_true(leader >= 0);
  int leaders = 0, red = 0;
  for (int i = 0; i < a->count; ++i) {
    if (a->field[leader][i] != 0) {
      leaders++;
      red += near(pixel_at(fbV(a->px[i], a->py[i])), (SDL_Color){255, 0, 0, 255}, 8);
    }
  }
  assert_true(leaders > 5);
  assert_true(red >= leaders * 8 / 10);
  int rover = -1;  // the player's unit: the one agent of species 2
  for (int i = 0; i < a->count; ++i) {
    rover = a->species[i] == 2 ? i : rover;
  }
  assert_true(rover >= 0);
  assert_true(near(pixel_at(fbV(a->px[rover], a->py[rover])), (SDL_Color){0, 255, 0, 255}, 8));
  // The species colour never occurs where there are no agents: a corner of the world is terrain.
  const unsigned char *corner = pixel_at(fbV(2, 2));
  assert_false(near(corner, (SDL_Color){60, 120, 255, 255}, 30));
  assert_false(near(corner, (SDL_Color){255, 0, 0, 255}, 30));
}

static void test_flat_ground_is_a_plain_field(void **state)
{
  (void)state;
  picture("scripts/classic_flock.lua", 10);
  // Flat ground is one colour under a faint grid and the agents: most samples share it.
  int same = 0, total = 0;
  const unsigned char *ref = pixel_at(fbV(101.3, 99.7));
  for (int y = 20; y < H - 20; y += 13) {
    for (int x = 120; x < W - 120; x += 13) {
      const unsigned char *p = pixels + 3 * ((size_t)y * W + x);
      same += abs(p[0] - ref[0]) + abs(p[1] - ref[1]) + abs(p[2] - ref[2]) < 12;
      total++;
    }
  }
  assert_true(same > total * 7 / 10);
  assert_true(agents_in_their_colour(0) > 0.8);
}

static void test_unwritable_path_is_reported(void **state)
{
  (void)state;
  fbRunOptions o;
  fbRunOptions_Default(&o);
  if (!fbSim_Load(&sim, "tests/data/view_test.lua", &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  assert_false(fbRender_SavePng(&sim, "/nonexistent-dir/x.png", 64, 64, err, sizeof err));
  assert_non_null(strstr(err, "/nonexistent-dir/x.png"));
  assert_false(fbRender_SavePng(&sim, "/tmp/x.png", 0, 64, err, sizeof err));
  assert_non_null(strstr(err, "/tmp/x.png"));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_picture_without_display, teardown),
      cmocka_unit_test_teardown(test_flat_ground_is_a_plain_field, teardown),
      cmocka_unit_test_teardown(test_unwritable_path_is_reported, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
