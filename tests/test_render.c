// test_render.c — headless pictures: fbRender_SavePng with no display, checked pixel by pixel.
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stb_image.h>
#include <stb_image_write.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FB_RENDER_SDL
#include "camera.h"
#include "render.h"
#include "sim_internal.h"  // white-box: reads and sets the sim's members
#include "splat.h"

#define W 800
#define H 600

static fbSim sim;
static char err[4096];
static char png[256];
static unsigned char *pixels;

// Loads a scenario (with one --set, or NULL), runs it a little and draws it to a PNG, then reads
// the PNG back.
static void picture_with(const char *scenario, const char *set, int steps)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.headless = true;
  if (set != NULL) {
    o.sets[o.set_count++] = set;
  }
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

static void picture(const char *scenario, int steps) { picture_with(scenario, NULL, steps); }

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
  fbCamera_FitScenario(&cam, &sim, (SDL_Rect){0, 0, W, H}, 8);  // as fbRender_SavePng fits it
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

// Pixels of the picture within tolerance of colour c.
static int pixels_of(SDL_Color c)
{
  int n = 0;
  for (int k = 0; k < W * H; ++k) {
    n += near(pixels + 3 * k, c, 6);
  }
  return n;
}

// Predators ask to be drawn large (draw_size 16) in a colour apart from the herd's: they cover more
// than twice the pixels they would at the default 9.
static void test_predators_stand_out(void **state)
{
  (void)state;
  picture("scripts/predator_prey.lua", 5);
  int s = fbWorld_FindSpecies(&sim.world, "predator");
  SDL_Color c = fbRender_SpeciesColour(&sim.world.species[s]);
  assert_true(sim.world.species[s].draw_size >= 16);
  int large = pixels_of(c);
  teardown(NULL);
  picture_with("scripts/predator_prey.lua", "predator.draw_size=9", 5);
  int small = pixels_of(c);
  print_message("predator pixels: %d at draw_size 16, %d at 9\n", large, small);
  assert_true(large > 2 * small);
}

// A perched bird (held still) is drawn in a darker shade than the birds in flight.
static void test_perched_birds_are_drawn_darker(void **state)
{
  (void)state;
  picture("scripts/perching_birds.lua", 600);
  const fbAgents *a = &sim.world.agents;
  int held = 0, dark = 0;
  for (int i = 0; i < a->count; ++i) {
    if (a->held[i]) {
      SDL_Color c = fbRender_AgentColour(&sim.world, i, -1);
      SDL_Color shade = {(uint8_t)(c.r * 0.45), (uint8_t)(c.g * 0.45), (uint8_t)(c.b * 0.45), 255};
      held++;
      dark += near(pixel_at(fbV(a->px[i], a->py[i])), shade, 8);
    }
  }
  print_message("%d of %d perched birds drawn in the darker shade\n", dark, held);
  assert_true(held >= 3);
  assert_true(dark >= held * 3 / 4);  // a bird flying over one hides it now and then
}

// The insects' scenario opens on its swarm (view = {x, y, width}): an insect's centre pixel is in
// its colour there, and the world's corner is out of the picture.
static void test_a_scenario_view_frames_its_subject(void **state)
{
  (void)state;
  picture("scripts/table2_insects.lua", 5);
  assert_true(agents_in_their_colour(0) > 0.8);
  fbCamera cam;
  fbCamera_FitScenario(&cam, &sim, (SDL_Rect){0, 0, W, H}, 8);
  fbVec2 corner = fbCamera_ToScreen(&cam, fbV(0, 0));
  assert_true(corner.x < 0 && corner.y < 0);
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

// A FIFO where the picture goes is refused, not written into (it would block) nor replaced.
static void test_fifo_path_is_refused(void **state)
{
  (void)state;
  fbRunOptions o;
  fbRunOptions_Default(&o);
  if (!fbSim_Load(&sim, "tests/data/view_test.lua", &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  snprintf(png, sizeof png, "/tmp/flockbox_test_render_%d.fifo", (int)getpid());
  assert_int_equal(mkfifo(png, 0600), 0);
  assert_false(fbRender_SavePng(&sim, png, 64, 64, err, sizeof err));
  assert_non_null(strstr(err, png));
  assert_non_null(strstr(err, "not a regular file (a FIFO)"));
  struct stat st;
  assert_true(stat(png, &st) == 0 && S_ISFIFO(st.st_mode));
}

// Positions and headings no step makes (NaN, 1e300, far past any int) are drawn as nothing: no
// conversion to int of a value it cannot hold (splat.c used to overflow on a NaN position).
static void test_insane_agents_are_not_drawn(void **state)
{
  (void)state;
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.headless = true;
  if (!fbSim_Load(&sim, "scripts/classic_flock.lua", &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  fbAgents *a = &sim.world.agents;
  a->px[0] = NAN;
  a->py[1] = 1e300;
  a->px[2] = -1e300;
  a->hx[3] = NAN;
  a->hy[4] = 1e300;
  a->px[5] = INFINITY;
  snprintf(png, sizeof png, "/tmp/flockbox_test_render_%d.png", (int)getpid());
  if (!fbRender_SavePng(&sim, png, W, H, err, sizeof err)) {
    fail_msg("%s", err);
  }
}

// The splat itself, handed pixels no view holds (a NaN position converts to INT_MIN on x86) and
// headings that are not numbers: nothing drawn, no signed overflow, a direction in range.
static void test_splat_takes_any_pixel(void **state)
{
  (void)state;
  static fbSplat s;  // large: kept off the stack
  memset(&s, 0, sizeof s);
  s.view_x = -100;
  s.view_y = 100;
  fbStamps st = {0};
  st.radius = 4;
  fbSplat_Stamp(&s, &st, 0, INT_MIN, 0, 1, false, 0);
  fbSplat_Stamp(&s, &st, 0, INT_MAX, INT_MIN, 1, false, 0);
  int d = fbSplat_Direction(&s, NAN, 1e300);
  assert_true(d >= 0 && d < FB_SPLAT_DIRECTIONS);
}

// ---- trails -------------------------------------------------------------------------------------

// Runs `steps` steps recording trails as the window does.
static void run_with_trails(fbRenderer *r, int steps)
{
  for (int k = 0; k < steps; ++k) {
    assert_true(fbSim_Step(&sim));
    fbTrails_Record(&r->trails, &sim);
  }
}

static void load(const char *scenario)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.headless = true;
  if (!fbSim_Load(&sim, scenario, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
}

static void test_trail_length_sets_the_snapshots(void **state)
{
  (void)state;
  load("scripts/classic_flock.lua");  // dt 0.05
  fbRenderer r;
  fbRender_Init(&r, NULL);
  assert_true(r.trails.seconds == FB_TRAIL_SECONDS_DEFAULT);
  fbTrails_SetSeconds(&r.trails, 1000);
  assert_true(r.trails.seconds == FB_TRAIL_SECONDS_MAX);
  fbTrails_SetSeconds(&r.trails, 0);
  assert_true(r.trails.seconds == FB_TRAIL_SECONDS_MIN);
  // 2 s at 0.05 s is 40 steps: a snapshot every step; 20 s is 400 steps: one every ceil(400 / 64) = 7.
  assert_int_equal(fbTrails_Interval(2.0, 0.05), 1);
  assert_int_equal(fbTrails_Interval(20.0, 0.05), 7);
  fbTrails_SetSeconds(&r.trails, 2.0);
  run_with_trails(&r, 60);
  assert_int_equal(r.trails.filled, 60);
  assert_true(fabs(fbTrails_Age(&r.trails, &sim) - 59 * 0.05) < 1e-9);
  fbTrails_SetSeconds(&r.trails, 20.0);
  fbTrails_Clear(&r.trails);
  run_with_trails(&r, 500);
  assert_int_equal(r.trails.filled, FB_TRAIL_SNAPSHOTS);  // 500 steps / 7 = 72 snapshots, the ring keeps 64
  double age = fbTrails_Age(&r.trails, &sim);
  assert_true(age >= 20.0 && age <= FB_TRAIL_SNAPSHOTS * 7 * 0.05 + 1e-9);
  // Shorter again: the ring keeps the coarse snapshots and new ones come every step.
  fbTrails_SetSeconds(&r.trails, 1.0);
  run_with_trails(&r, 5);
  assert_int_equal(fbTrails_Interval(1.0, 0.05), 1);
  fbRender_Free(&r);
}

// Draws the world (and trails, and agents) of the loaded sim onto a software surface.
static SDL_Surface *draw(fbRenderer *r, bool trails, bool agents, fbCamera *cam)
{
  SDL_Surface *surface = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_RGBA32);
  SDL_Renderer *sdl = SDL_CreateSoftwareRenderer(surface);
  assert_non_null(sdl);
  r->sdl = sdl;
  fbCamera_Fit(cam, sim.world.width, sim.world.height, (SDL_Rect){0, 0, W, H}, 8);
  fbRender_World(r, &sim, cam);
  if (trails) {
    fbRender_Trails(r, &sim, cam);
  }
  if (agents) {
    fbRender_Agents(r, &sim, cam);
  }
  SDL_RenderPresent(sdl);
  fbSplat_Free(&r->agent_canvas);  // textures belong to this SDL renderer: the next draw makes new ones
  fbSplat_Free(&r->trail_canvas);
  if (r->terrain != NULL) {
    SDL_DestroyTexture(r->terrain);
  }
  r->terrain = NULL;
  r->terrain_built = false;
  SDL_DestroyRenderer(sdl);
  r->sdl = NULL;
  return surface;
}

/*
 * The share of trail points (snapshots of 1 to 3 s ago, away from any agent's body) where the
 * picture with trails differs from the one without: the trail is drawn there. Coloured pixels of
 * the agent's own colour must be among them, not only the dark under-stroke.
 */
static void check_trail_pixels(const char *scenario, const char *png_path)
{
  load(scenario);
  fbRenderer r;
  fbRender_Init(&r, NULL);
  fbTrails_SetSeconds(&r.trails, 4.0);
  run_with_trails(&r, (int)ceil(4.0 / sim.world.dt));
  fbCamera cam;
  SDL_Surface *plain = draw(&r, false, false, &cam), *with = draw(&r, true, false, &cam);
  const fbTrails *t = &r.trails;
  const fbAgents *a = &sim.world.agents;
  int leader = fbWorld_FindField(&sim.world, "leader");
  int points = 0, changed = 0, coloured = 0;
  for (int n = 0; n < t->filled; ++n) {
    int k = (t->newest - n + FB_TRAIL_SNAPSHOTS) % FB_TRAIL_SNAPSHOTS;
    double age = (double)(sim.world.step - t->step[k]) * sim.world.dt;
    if (age < 1.0 || age > 3.0) {
      continue;
    }
    for (int i = 0; i < a->count; i += 7) {
      uint32_t j = a->id[i] - t->first_id[k];  // snapshots are indexed by id
      if (a->id[i] < t->first_id[k] || j >= (uint32_t)t->count[k] || isnan(t->x[k][j])) {
        continue;
      }
      fbVec2 s = fbCamera_ToScreen(&cam, fbV(t->x[k][j], t->y[k][j]));
      int x = (int)s.x, y = (int)s.y;
      if (x < 0 || y < 0 || x >= W || y >= H) {
        continue;
      }
      const uint8_t *p0 = (const uint8_t *)plain->pixels + (size_t)y * plain->pitch + 4 * x;
      const uint8_t *p1 = (const uint8_t *)with->pixels + (size_t)y * with->pitch + 4 * x;
      SDL_Color c = fbRender_AgentColour(&sim.world, i, leader);
      points++;
      changed += abs(p0[0] - p1[0]) + abs(p0[1] - p1[1]) + abs(p0[2] - p1[2]) > 12;
      // Coloured: nearer the agent's colour than the ground was.
      int d0 = abs(p0[0] - c.r) + abs(p0[1] - c.g) + abs(p0[2] - c.b);
      int d1 = abs(p1[0] - c.r) + abs(p1[1] - c.g) + abs(p1[2] - c.b);
      coloured += d1 < d0 - 30;
    }
  }
  SDL_FreeSurface(plain);
  SDL_FreeSurface(with);
  SDL_Surface *full = draw(&r, true, true, &cam);  // for a look: flockbox_test_trails_*.png in /tmp
  stbi_write_png(png_path, W, H, 4, full->pixels, full->pitch);
  SDL_FreeSurface(full);
  print_message("%s: %d trail points, %d drawn, %d in the agent's colour\n", scenario, points, changed, coloured);
  assert_true(points > 50);
  assert_true(changed > points * 8 / 10);
  assert_true(coloured > points * 6 / 10);
  fbRender_Free(&r);
}

static void test_trails_on_plain_ground(void **state)
{
  (void)state;
  check_trail_pixels("scripts/classic_flock.lua", "/tmp/flockbox_test_trails_plain.png");
}

static void test_trails_on_terrain(void **state)
{
  (void)state;
  check_trail_pixels("tests/data/view_test.lua", "/tmp/flockbox_test_trails_terrain.png");
}

static void test_agent_mode_says_what_was_drawn(void **state)
{
  (void)state;
  load("scripts/classic_flock.lua");
  fbRenderer r;
  fbRender_Init(&r, NULL);
  assert_string_equal(fbRender_AgentMode(&r), "");
  fbCamera cam;
  SDL_FreeSurface(draw(&r, false, true, &cam));
  // 300 agents of 1.5 units at 3 px per unit: the 9-pixel minimum, with outlines.
  assert_string_equal(fbRender_AgentMode(&r), "300 agents drawn as 9-px stamps");
  run_with_trails(&r, 10);
  SDL_FreeSurface(draw(&r, true, true, &cam));
  assert_string_equal(fbRender_AgentMode(&r), "300 agents drawn as 9-px stamps; trails 4.0 s");
  fbRender_Free(&r);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_picture_without_display, teardown),
      cmocka_unit_test_teardown(test_predators_stand_out, teardown),
      cmocka_unit_test_teardown(test_perched_birds_are_drawn_darker, teardown),
      cmocka_unit_test_teardown(test_a_scenario_view_frames_its_subject, teardown),
      cmocka_unit_test_teardown(test_flat_ground_is_a_plain_field, teardown),
      cmocka_unit_test_teardown(test_unwritable_path_is_reported, teardown),
      cmocka_unit_test_teardown(test_fifo_path_is_refused, teardown),
      cmocka_unit_test_teardown(test_insane_agents_are_not_drawn, teardown),
      cmocka_unit_test(test_splat_takes_any_pixel),
      cmocka_unit_test_teardown(test_trail_length_sets_the_snapshots, teardown),
      cmocka_unit_test_teardown(test_trails_on_plain_ground, teardown),
      cmocka_unit_test_teardown(test_trails_on_terrain, teardown),
      cmocka_unit_test_teardown(test_agent_mode_says_what_was_drawn, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
