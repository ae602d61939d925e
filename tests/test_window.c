// test_window.c — the window as an instrument: docks and view, plots, help, overlays, scenarios, dragging, the player's keys.
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim_internal.h"  // white-box: reads and sets the sim's members
#include "help.h"
#include "live.h"
#include "view_util.h"

static fbViewer viewer;

// A viewer on scenario with extra options (NULL-terminated), each frame 1/60 s of simulated time.
#define open_on(...) fbTest_OpenViewer(&viewer, "3", __VA_ARGS__)

static void frames(fbViewer *v, int n) { fbTest_Frames(v, n); }

#define key_down fbTest_KeyDown
#define key_up fbTest_KeyUp
#define key fbTest_Key

#define mouse fbTest_Mouse

static bool overlaps(SDL_Rect a, SDL_Rect b)
{
  return a.w > 0 && a.h > 0 && b.w > 0 && b.h > 0 && SDL_HasIntersection(&a, &b);
}

static bool contains(SDL_Rect outer, fbVec2 p)
{
  return p.x >= outer.x && p.y >= outer.y && p.x <= outer.x + outer.w && p.y <= outer.y + outer.h;
}

static int teardown(void **state)
{
  (void)state;
  if (viewer.run != NULL) {
    fbViewer_Destroy(&viewer);
  }
  return 0;
}

// The pixel at x, y of what was drawn last (read before the next frame clears it).
static SDL_Color pixel(fbViewer *v, int x, int y)
{
  uint8_t rgba[4];
  SDL_RenderReadPixels(v->sdl, &(SDL_Rect){x, y, 1, 1}, SDL_PIXELFORMAT_RGBA32, rgba, 4);
  return (SDL_Color){rgba[0], rgba[1], rgba[2], rgba[3]};
}

// ---- layout -------------------------------------------------------------------------------------

// With every dock open, at a small and a large window, no dock covers the world's view, and Home
// fits the whole world inside the view.
static void check_layout(const char *size)
{
  fbViewer *v = open_on("scripts/herd_hills.lua", "--size", size, "--show", "plots,params", NULL);
  frames(v, 2);
  fbLayout *l = &v->layout;
  assert_true(l->world.w >= 200 && l->world.h >= 150);
  assert_false(overlaps(l->world, l->dock[fbTest_Dock("info")]));
  assert_false(overlaps(l->world, l->dock[fbTest_Dock("params")]));
  assert_false(overlaps(l->world, l->dock[fbTest_Dock("plots")]));
  assert_false(overlaps(l->world, l->keys));
  key(v, SDLK_HOME, 0);
  const fbWorld *w = &v->run->sim->world;
  assert_true(contains(l->world, fbCamera_ToScreen(&v->camera, fbV(0, 0))));
  assert_true(contains(l->world, fbCamera_ToScreen(&v->camera, fbV(w->width, w->height))));
  // The key bar shows what fits and sends the rest behind F1, instead of wrapping into the world.
  assert_true(v->key_bar_entries > 3);
  fbViewer_Destroy(v);
}

static void test_docks_leave_the_world_its_view(void **state)
{
  (void)state;
  check_layout("900x600");
  check_layout("1920x1080");
}

// Closing a dock gives its room back to the world; I, Tab and G collapse and reopen.
static void test_every_dock_collapses(void **state)
{
  (void)state;
  fbViewer *v = open_on("scripts/herd_hills.lua", "--show", "plots,params", NULL);
  frames(v, 1);
  SDL_Rect before = v->layout.world;
  key(v, SDLK_g, 0);
  key(v, SDLK_TAB, 0);
  key(v, SDLK_i, 0);
  frames(v, 1);
  assert_false(v->docks.open[fbTest_Dock("plots")] || v->docks.open[fbTest_Dock("params")] ||
               v->docks.open[fbTest_Dock("info")]);
  assert_true(v->layout.world.w > before.w + 500 && v->layout.world.h > before.h + 100);
  key(v, SDLK_i, 0);
  frames(v, 1);
  assert_true(v->docks.open[fbTest_Dock("info")]);
  assert_int_equal(v->layout.world.x, v->layout.dock[fbTest_Dock("info")].w);
  // The camera was not moved: the world is fitted into each new view. Once zoomed, it stays put.
  const fbWorld *w = &v->run->sim->world;
  assert_true(contains(v->layout.world, fbCamera_ToScreen(&v->camera, fbV(w->width, w->height))));
  fbInput_ZoomAt(&v->camera, v->layout.world.x + 50, v->layout.world.y + 50, 2);
  fbCamera zoomed = v->camera;
  key(v, SDLK_g, 0);
  frames(v, 1);
  assert_float_equal(v->camera.scale, zoomed.scale, 0);
  assert_float_equal(v->camera.cx, zoomed.cx, 0);
}

// A narrow window shows fewer key-bar entries, never more than there are.
static void test_key_bar_collapses_on_narrow_windows(void **state)
{
  (void)state;
  fbViewer *v = open_on("scripts/classic_flock.lua", "--size", "640x480", NULL);
  frames(v, 1);
  int narrow = v->key_bar_entries;
  fbViewer_Destroy(v);
  v = open_on("scripts/classic_flock.lua", "--size", "1920x1080", NULL);
  frames(v, 1);
  assert_true(narrow < v->key_bar_entries);
  assert_true(v->key_bar_entries <= fbHelp_KeyCount());
}

// ---- plots --------------------------------------------------------------------------------------

static void test_plots_grow_freeze_and_clear(void **state)
{
  (void)state;
  fbViewer *v = open_on("scripts/predator_prey.lua", "--show", "plots", NULL);
  // A chart per measure with a line per species, then one per metric.
  assert_int_equal(v->plots.chart_count, FB_MEASURES + v->run->sim->hooks.metric_count);
  assert_string_equal(v->plots.series[1], "predator.agents");
  frames(v, 120);  // 2 s of simulated time at x1
  int running = v->plots.count;
  assert_true(running >= 15);
  assert_float_equal(v->plots.value[running - 1][0], 80, 0);  // herd.agents
  key(v, SDLK_SPACE, 0);
  frames(v, 60);
  assert_int_equal(v->plots.count, running);  // paused: frozen
  key(v, SDLK_SPACE, 0);
  frames(v, 30);
  assert_true(v->plots.count > running);
  key(v, SDLK_r, 0);
  assert_int_equal(v->plots.count, 1);  // a restart starts the plots over from its first state
  // A scenario reload with the same series keeps them.
  frames(v, 30);
  int kept = v->plots.count;
  fbPlots_Adopt(&v->plots, v->run->sim);
  assert_int_equal(v->plots.count, kept);
  // Drawn: the herd's series colour appears in the plots dock (its lines and latest values).
  frames(v, 1);
  SDL_Rect r = v->layout.dock[fbTest_Dock("plots")];
  SDL_Color herd = fbHud_SpeciesColour(&v->run->sim->world.species[0]);
  uint8_t *rgba = malloc((size_t)r.w * r.h * 4);
  assert_int_equal(SDL_RenderReadPixels(v->sdl, &r, SDL_PIXELFORMAT_RGBA32, rgba, r.w * 4), 0);
  int coloured = 0;
  for (int k = 0; k < r.w * r.h; ++k) {
    const uint8_t *c = rgba + 4 * k;
    coloured += abs(c[0] - herd.r) < 8 && abs(c[1] - herd.g) < 8 && abs(c[2] - herd.b) < 8;
  }
  free(rgba);
  assert_true(coloured > 200);
}

// The info panel's profile names the slow rule first, from the steps of the last half second.
static void test_info_panel_names_the_slow_rule(void **state)
{
  (void)state;
  fbViewer *v = open_on("tests/data/profile_busy.lua", NULL);
  frames(v, 90);
  assert_true(v->profile_rows >= 6);  // perception, the rest of the step, the view and four rules
  assert_string_equal(v->profile[0].part, "busy");
  assert_true(v->profile[0].share > 0.5);
}

// Pixels of r close to colour c on the frame just drawn.
static int pixels_like(fbViewer *v, SDL_Rect r, SDL_Color c)
{
  uint8_t *rgba = malloc((size_t)r.w * r.h * 4);
  assert_int_equal(SDL_RenderReadPixels(v->sdl, &r, SDL_PIXELFORMAT_RGBA32, rgba, r.w * 4), 0);
  int n = 0;
  for (int k = 0; k < r.w * r.h; ++k) {
    const uint8_t *p = rgba + 4 * k;
    n += abs(p[0] - c.r) < 8 && abs(p[1] - c.g) < 8 && abs(p[2] - c.b) < 8;
  }
  free(rgba);
  return n;
}

// At every size from 800 x 600 to 1920 x 1080, with every dock open, each chart the plots dock
// shows draws its line (at 900 x 600 they used to be too small to draw any); charts that do not
// fit scroll with the wheel, and scrolling shows the others, each drawn too.
static void test_plots_draw_their_lines_at_every_size(void **state)
{
  (void)state;
  static const char *const sizes[] = {"800x600", "900x600", "1280x800", "1920x1080"};
  for (int z = 0; z < 4; ++z) {
    fbViewer *v = open_on("scripts/predator_prey.lua", "--size", sizes[z], "--show", "plots,params", NULL);
    frames(v, 120);
    SDL_Rect area = v->layout.dock[fbTest_Dock("plots")];
    int seen = 0, rows, shown, chart[FB_PLOT_MAX_CHARTS];
    SDL_Rect cell[FB_PLOT_MAX_CHARTS];
    for (int page = 0; page < 8 && seen < v->plots.chart_count; ++page) {
      int n = fbPlots_Cells(&v->plots, v->hud.line_h, area, chart, cell, FB_PLOT_MAX_CHARTS, &rows, &shown);
      assert_true(n >= 2);
      for (int k = 0; k < n; ++k) {
        const fbPlotChart *c = &v->plots.charts[chart[k]];
        int drawn = pixels_like(v, cell[k], v->plots.colour[c->first]);
        if (drawn < 15) {
          fail_msg("%s: chart %d (%s) drew %d pixels of its line", sizes[z], chart[k], c->title, drawn);
        }
        seen = chart[k] + 1 > seen ? chart[k] + 1 : seen;
      }
      SDL_Event wheel = {.type = SDL_MOUSEWHEEL};  // the next rows
      wheel.wheel.y = -shown;
      wheel.wheel.mouseX = area.x + area.w / 2;
      wheel.wheel.mouseY = area.y + area.h / 2;
      fbViewer_HandleEvent(v, &wheel);
      frames(v, 2);
    }
    print_message("%s: plots dock %dx%d, %d rows of charts, %d shown at a time\n", sizes[z], area.w, area.h, rows,
                  shown);
    assert_int_equal(seen, v->plots.chart_count);
    fbViewer_Destroy(v);
  }
}

// The info dock's About tab shows the scenario's header comment with its "Try:" line bright; a
// click on "status" goes back. A scenario's own `description` replaces the header comment.
static void test_about_tab_shows_what_the_scenario_is(void **state)
{
  (void)state;
  fbViewer *v = open_on("scripts/predator_prey.lua", "--show", "about", NULL);
  frames(v, 2);
  assert_int_equal(v->info_tab, 1);
  const char *about = fbSim_Description(v->run->sim);
  assert_non_null(strstr(about, "scripts/predator_prey.lua — a few predators"));
  assert_non_null(strstr(about, "Try: flockbox --headless"));
  assert_null(strstr(about, "\n--"));  // the comment's dashes are gone
  SDL_Rect info = v->layout.dock[fbTest_Dock("info")];
  assert_true(pixels_like(v, info, (SDL_Color){140, 230, 140, 255}) > 50);  // the Try: line, drawn
  int x = info.x + info.w / 4, y = info.y + 4 + v->hud.line_h / 2;  // the "status" tab
  mouse(v, SDL_MOUSEBUTTONDOWN, x, y);
  mouse(v, SDL_MOUSEBUTTONUP, x, y);
  frames(v, 2);
  assert_int_equal(v->info_tab, 0);
  fbViewer_Destroy(v);
  v = open_on("tests/data/described.lua", NULL);
  assert_string_equal(fbSim_Description(v->run->sim), "A scenario that says what it is.");
}

// The key bar's button for key sym, drawn last frame.
static SDL_Rect key_button(const fbViewer *v, SDL_Keycode sym)
{
  for (int k = 0; k < v->key_bar_button_count; ++k) {
    if (v->key_bar_buttons[k].sym[0] == sym) {
      return v->key_bar_buttons[k].rect;
    }
  }
  fail_msg("no key bar button for key %d", (int)sym);
  return (SDL_Rect){0};
}

static void click_at(fbViewer *v, int x, int y)
{
  mouse(v, SDL_MOUSEBUTTONDOWN, x, y);
  mouse(v, SDL_MOUSEBUTTONUP, x, y);
  frames(v, 1);
}

// The key bar's entries are buttons, as NetLogo's interface has them: a click pauses, opens the
// parameter panel, slows time down (the right half of "+ / −"), opens the help.
static void test_key_bar_entries_are_buttons(void **state)
{
  (void)state;
  fbViewer *v = open_on("scripts/classic_flock.lua", NULL);
  frames(v, 2);
  SDL_Rect pause = key_button(v, SDLK_SPACE);
  bool paused = v->paused;
  click_at(v, pause.x + pause.w / 2, pause.y + pause.h / 2);
  assert_true(v->paused != paused);
  int params = fbTest_Dock("params");
  assert_false(v->docks.open[params]);
  SDL_Rect tab = key_button(v, SDLK_TAB);
  click_at(v, tab.x + tab.w / 2, tab.y + tab.h / 2);
  assert_true(v->docks.open[params]);
  double scale = fbViewer_TimeScale(v);
  SDL_Rect speed = key_button(v, SDLK_PLUS);
  click_at(v, speed.x + speed.w * 3 / 4, speed.y + speed.h / 2);  // the "−" half
  assert_true(fbViewer_TimeScale(v) < scale);
  click_at(v, speed.x + speed.w / 4, speed.y + speed.h / 2);  // the "+" half
  assert_float_equal(fbViewer_TimeScale(v), scale, 1e-12);
  SDL_Rect help = key_button(v, SDLK_F1);
  click_at(v, help.x + help.w / 2, help.y + help.h / 2);
  assert_true(v->help);
}

// A full buffer is thinned: samples halve, the interval doubles, the start of the run stays.
static void test_plots_thin_when_full(void **state)
{
  (void)state;
  fbViewer *v = open_on("scripts/classic_flock.lua", NULL);
  fbPlots *p = &v->plots;
  double interval = p->interval;
  fbSim *sim = v->run->sim;
  for (int k = 0; k < FB_PLOT_CAPACITY + 10; ++k) {
    sim->world.step += 10;  // time moves on without stepping: only the sampling is under test
    fbPlots_Sample(p, sim, NULL);
  }
  assert_true(p->count <= FB_PLOT_CAPACITY && p->count > FB_PLOT_CAPACITY / 2);
  assert_float_equal(p->interval, 2 * interval, 1e-12);
  assert_float_equal(p->time[0], 0, 0);
}

// ---- help ---------------------------------------------------------------------------------------

static void test_help_opens_on_f1_and_question_mark(void **state)
{
  (void)state;
  fbViewer *v = open_on("scripts/classic_flock.lua", NULL);
  frames(v, 1);
  int cx = v->layout.keys.w / 2, cy = (v->layout.keys.y + v->layout.keys.h) / 2;
  key(v, SDLK_F1, 0);
  assert_true(v->help);
  frames(v, 1);
  int dark = 0;  // the overlay's dark box over the world's middle: most of a short column is dark
  for (int k = 0; k < 12; ++k) {  // (not one pixel: a line of the key list may run through it)
    SDL_Color c = pixel(v, cx, cy + k);
    dark += c.r < 40 && c.g < 40 && c.b < 40;
  }
  assert_true(dark >= 6);
  // Opaque over the panels too: its margin, left of the text, is the box's own colour exactly
  // (hud.c's fbHud_Dialog), whatever the info dock draws under it.
  int box_w = v->layout.keys.w - 4 * 8 < 760 ? v->layout.keys.w - 4 * 8 : 760;
  SDL_Color margin = pixel(v, (v->layout.keys.w - box_w) / 2 + 3, cy);
  assert_true(margin.r == 10 && margin.g == 12 && margin.b == 16);
  key(v, SDLK_SPACE, 0);  // any key closes it, and does nothing else
  assert_false(v->help);
  assert_false(v->paused);
  key(v, SDLK_SLASH, KMOD_LSHIFT);  // ? on a US layout
  assert_true(v->help);
  key(v, SDLK_ESCAPE, 0);
  assert_false(v->help);
  assert_false(v->quit);  // Esc closed the help; it did not quit
}

// ---- overlays -----------------------------------------------------------------------------------

// The inspector's numbers: a tiny negative value is printed as 0, never "-0".
static void test_numbers_never_read_minus_zero(void **state)
{
  (void)state;
  char text[32];
  fbHud_Number(text, sizeof text, "%.2f", -0.001);
  assert_string_equal(text, "0.00");
  fbHud_Number(text, sizeof text, "%.0f", -0.2);
  assert_string_equal(text, "0");
  fbHud_Number(text, sizeof text, "%.3g", -0.0);
  assert_string_equal(text, "0");
  fbHud_Number(text, sizeof text, "%.2f", -1.5);
  assert_string_equal(text, "-1.50");
}

// A predator's own fields are its rules' (resting, wander); the herd's rules declare none of them.
static void test_inspector_fields_are_the_agents_own(void **state)
{
  (void)state;
  fbViewer *v = open_on("scripts/predator_prey.lua", NULL);
  const fbWorld *w = &v->run->sim->world;
  int resting = fbWorld_FindField(w, "resting");
  assert_true(resting >= 0);
  int herd = 0, predator = 1;
  assert_string_equal(w->species[predator].name, "predator");
  assert_true(w->species[predator].field_mask & (1u << resting));
  assert_false(w->species[herd].field_mask & (1u << resting));
  // A species field changed live (the panel) keeps the fields its rules declared.
  char msg[256];
  assert_true(fbLive_Set(v->run->sim, "predator.max_speed=7", msg, sizeof msg));
  assert_true(w->species[predator].field_mask & (1u << resting));
}

// The selected predator shows its hunting radius (predator.radius, declared circle = true) as well
// as its vision; the arrows' scale is known.
static void test_selection_draws_every_radius(void **state)
{
  (void)state;
  fbViewer *v = open_on("scripts/predator_prey.lua", "--inspect", "82", NULL);
  frames(v, 30);
  int i = fbWorld_FindAgent(&v->run->sim->world, 82);
  assert_true(i >= 0);
  fbSelectionCircle circles[FB_MAX_SELECTION_CIRCLES];
  int n = fbRender_SelectionCircles(v->run->sim, i, circles, FB_MAX_SELECTION_CIRCLES);
  bool vision = false, hunt = false;
  for (int k = 0; k < n; ++k) {
    vision = vision || strncmp(circles[k].label, "vision", 6) == 0;
    hunt = hunt || (strncmp(circles[k].label, "predator.radius", 15) == 0 && circles[k].radius == 90);
  }
  assert_true(vision && hunt);
  assert_true(v->px_per_accel > 0);
  // The hunting circle is drawn: its colour lies on the circle wherever the circle is in the view.
  // Every 15 degrees a short radial scan looks for it; most samples in view must find it (labels
  // and agents may cover a few).
  const fbAgents *a = &v->run->sim->world.agents;
  SDL_Color rule = fbRender_RuleColour(0);
  int in_view = 0, found = 0;
  for (int deg = 0; deg < 360; deg += 15) {
    double t = deg * FB_PI / 180;
    fbVec2 p = fbCamera_ToScreen(&v->camera, fbV(a->px[i] + 90 * cos(t), a->py[i] + 90 * sin(t)));
    SDL_Rect inner = {v->layout.world.x + 4, v->layout.world.y + 4, v->layout.world.w - 8, v->layout.world.h - 8};
    if (!contains(inner, p)) {
      continue;
    }
    in_view++;
    bool hit = false;
    for (int d = -3; d <= 3 && !hit; ++d) {
      SDL_Color c = pixel(v, (int)lround(p.x + d * cos(t)), (int)lround(p.y + d * sin(t)));
      hit = abs(c.r - rule.r) < 60 && abs(c.g - rule.g) < 60 && abs(c.b - rule.b) < 60;
    }
    found += hit;
  }
  assert_true(in_view >= 6);
  assert_true(found >= in_view * 3 / 4);
}

// ---- text in boxes -------------------------------------------------------------------------------

// Nothing drawn in r: every pixel is the one at the same height in column `bare_x`, where nothing is drawn.
static void assert_bare(fbViewer *v, SDL_Rect r, int bare_x)
{
  for (int y = r.y; y < r.y + r.h; ++y) {
    SDL_Color bare = pixel(v, bare_x, y);
    for (int x = r.x; x < r.x + r.w; ++x) {
      SDL_Color c = pixel(v, x, y);
      if (c.r != bare.r || c.g != bare.g || c.b != bare.b) {
        fail_msg("drawn at %d, %d (%d %d %d): text past its box's margin", x, y, c.r, c.g, c.b);
      }
    }
  }
}

// Text too long for the info dock ends in "…" inside its margin instead of being cut at its edge: at
// 800x600 the legend's player line ("· you steer it: arrow keys") is too long for the dock, and in
// a narrow column every inspector line (the rules', the combined steering's) is.
static void test_text_is_elided_not_clipped(void **state)
{
  (void)state;
  const int margin = 7;  // the dock's text keeps 8 pixels from its edge; its tabs and rule line reach 4 and 8
  fbViewer *v = open_on("scripts/leader_chase.lua", "--size", "800x600", NULL);
  frames(v, 30);
  SDL_Rect info = v->layout.dock[fbTest_Dock("info")];
  int below_tabs = info.y + v->hud.line_h + 12;
  assert_bare(v, (SDL_Rect){info.x + info.w - margin, below_tabs, margin, info.h - below_tabs}, info.x + 1);

  const fbSim *sim = v->run->sim;
  SDL_SetRenderDrawColor(v->sdl, 0, 0, 0, 255);
  SDL_RenderClear(v->sdl);
  SDL_Rect column = {0, 0, 170, 600};
  for (int i = 0; i < 3; ++i) {
    fbHud_Inspector(&v->hud, sim, i, column, 1.0);
    assert_bare(v, (SDL_Rect){column.w - margin, 0, 60, 600}, column.w + 100);
  }
}

// An inspected herd animal's lines (gompert_trip: five rules, its fields) run past the info dock at 800 x 600: the wheel over the dock scrolls
// them up, no further than the last line, and back; at 1920 x 1080 they fit and nothing scrolls.
static int info_after_wheel(fbViewer *v, int notches)
{
  SDL_Rect info = v->layout.dock[fbTest_Dock("info")];
  SDL_Event wheel = {.type = SDL_MOUSEWHEEL};
  wheel.wheel.y = notches;
  wheel.wheel.mouseX = info.x + info.w / 2;
  wheel.wheel.mouseY = info.y + info.h / 2;
  fbViewer_HandleEvent(v, &wheel);
  frames(v, 2);
  return v->info_scroll;
}

static void test_info_dock_scrolls_what_does_not_fit(void **state)
{
  (void)state;
  // 40 frames: past the first half second of frame time (30 frames), when the profile block is
  // drawn and the dock overflows, however fast the machine drew them.
  fbViewer *v = open_on("scripts/gompert_trip.lua", "--size", "800x600", "--inspect", "5", NULL);
  frames(v, 40);
  assert_true(v->profile_rows > 0);
  assert_int_equal(v->info_scroll, 0);
  int down = info_after_wheel(v, -1), further = info_after_wheel(v, -100);
  print_message("800x600: scrolled %d px by one notch, %d at most\n", down, further);
  assert_true(down > 0 && further > down);
  assert_int_equal(info_after_wheel(v, -1), further);  // the last line is the bottom: no further
  assert_int_equal(info_after_wheel(v, 100), 0);
  fbViewer_Destroy(v);
  v = open_on("scripts/gompert_trip.lua", "--size", "1920x1080", "--inspect", "5", NULL);
  frames(v, 10);
  assert_int_equal(info_after_wheel(v, -3), 0);
  fbViewer_Destroy(v);
}

// ---- scenarios ----------------------------------------------------------------------------------

static void test_open_a_scenario_from_the_list_or_a_drop(void **state)
{
  (void)state;
  fbViewer *v = open_on("scripts/classic_flock.lua", NULL);
  key(v, SDLK_o, 0);
  assert_true(v->list.open);
  assert_true(v->list.count >= 10);
  assert_non_null(strstr(v->list.paths[v->list.selected], "classic_flock.lua"));
  key(v, SDLK_DOWN, 0);
  char expected[768];
  snprintf(expected, sizeof expected, "%s", v->list.paths[v->list.selected]);
  key(v, SDLK_RETURN, 0);
  assert_false(v->list.open);
  assert_true(v->loaded);
  assert_string_equal(v->run->sim->path, expected);
  frames(v, 2);
  // A dropped file opens too.
  SDL_Event e = {0};
  e.type = SDL_DROPFILE;
  e.drop.file = SDL_strdup("scripts/moths_lamp.lua");
  fbViewer_HandleEvent(v, &e);
  assert_string_equal(v->run->sim->name, "Moths round a lamp");
  // A file that is not a scenario leaves the window running with the message.
  e.drop.file = SDL_strdup("README.md");
  fbViewer_HandleEvent(v, &e);
  assert_false(v->loaded);
  assert_non_null(strstr(v->load_error, "README.md"));
  frames(v, 2);
}

// A save the window picks up says so in the window, and the plots go on through it.
static void test_reload_shows_a_notice(void **state)
{
  (void)state;
  char path[256], copy[600];
  snprintf(path, sizeof path, "tests/data/window_reload_%d.lua", (int)getpid());
  snprintf(copy, sizeof copy, "cp scripts/moths_lamp.lua %s", path);
  assert_int_equal(system(copy), 0);
  fbViewer *v = open_on(path, NULL);
  frames(v, 30);
  int samples = v->plots.count;
  FILE *f = fopen(path, "a");
  assert_non_null(f);
  fputs("-- saved again\n", f);
  fclose(f);
  for (int k = 0; k < 6000 && strstr(v->notice, "reloaded") == NULL; ++k) {  // up to a minute: a hang guard
    SDL_Delay(10);  // the save settles in real time
    frames(v, 1);
  }
  unlink(path);
  assert_non_null(strstr(v->notice, "reloaded"));
  assert_non_null(strstr(v->notice, "window_reload_"));
  assert_true(v->frames < v->notice_until);  // shown now
  assert_true(v->plots.count >= samples);   // same columns: the plots survive the reload
}

// ---- direct manipulation ------------------------------------------------------------------------

static void test_drag_the_lamp_and_a_path_point(void **state)
{
  (void)state;
  fbViewer *v = open_on("scripts/moths_lamp.lua", NULL);
  frames(v, 2);
  fbWorld *w = &v->run->sim->world;
  fbVec2 lamp = fbCamera_ToScreen(&v->camera, w->goals[0].p);
  fbCamera cam = v->camera;
  mouse(v, SDL_MOUSEBUTTONDOWN, (int)lamp.x + 3, (int)lamp.y);
  mouse(v, SDL_MOUSEMOTION, (int)lamp.x + 40, (int)lamp.y + 20);
  mouse(v, SDL_MOUSEBUTTONUP, (int)lamp.x + 60, (int)lamp.y + 30);
  fbVec2 moved = fbCamera_ToWorld(&v->camera, fbV((int)lamp.x + 60, (int)lamp.y + 30));
  assert_float_equal(w->goals[0].p.x, moved.x, 1e-9);
  assert_float_equal(w->goals[0].p.y, moved.y, 1e-9);
  assert_float_equal(v->camera.cx, cam.cx, 0);  // the lamp moved, not the view
  assert_int_equal(v->selected, 0);
  fbViewer_Destroy(v);

  v = open_on("scripts/dragonflies_path.lua", NULL);
  frames(v, 2);
  fbPath *path = &v->run->sim->world.paths.items[0];
  double length = path->length;
  fbVec2 p = fbCamera_ToScreen(&v->camera, path->points[2]);
  mouse(v, SDL_MOUSEBUTTONDOWN, (int)p.x, (int)p.y);
  mouse(v, SDL_MOUSEBUTTONUP, (int)p.x, (int)p.y + 80);
  path = &v->run->sim->world.paths.items[0];
  assert_true(path->points[2].y > 60 + 10);
  assert_true(path->length != length);
  frames(v, 10);  // the flock follows the new path without trouble
  assert_true(v->loaded && !v->scenario_failed);
}

// ---- the player ---------------------------------------------------------------------------------

// leader_chase's autopilot steers the player; the arrow keys take over at once and give it back a
// few seconds after they are let go.
static void test_arrows_override_the_autopilot(void **state)
{
  (void)state;
  fbViewer *v = open_on("scripts/leader_chase.lua", NULL);
  frames(v, 30);
  fbWorld *w = &v->run->sim->world;
  assert_false(w->input_held);
  key_down(v, SDLK_RIGHT, 0);
  frames(v, 30);
  assert_true(w->input_held);
  assert_float_equal(w->input.x, 1, 0);
  assert_float_equal(w->input.y, 0, 0);
  int player = fbWorld_FindAgent(w, 1);
  assert_true(w->agents.vx[player] > 0.8 * hypot(w->agents.vx[player], w->agents.vy[player]));  // heading right
  key_up(v, SDLK_RIGHT);
  frames(v, 60);
  assert_true(w->input_held);  // idle for 1 s: still the user's
  frames(v, 150);
  assert_false(w->input_held);  // 3.5 s: the autopilot steers again
  assert_true(w->input.x != 0 || w->input.y != 0);
}

int main(void)
{
  setenv("SDL_VIDEODRIVER", "dummy", 1);  // no display needed: a window with a software renderer
  unsetenv("DISPLAY");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_docks_leave_the_world_its_view, teardown),
      cmocka_unit_test_teardown(test_every_dock_collapses, teardown),
      cmocka_unit_test_teardown(test_key_bar_collapses_on_narrow_windows, teardown),
      cmocka_unit_test_teardown(test_plots_grow_freeze_and_clear, teardown),
      cmocka_unit_test_teardown(test_info_panel_names_the_slow_rule, teardown),
      cmocka_unit_test_teardown(test_plots_draw_their_lines_at_every_size, teardown),
      cmocka_unit_test_teardown(test_about_tab_shows_what_the_scenario_is, teardown),
      cmocka_unit_test_teardown(test_key_bar_entries_are_buttons, teardown),
      cmocka_unit_test_teardown(test_plots_thin_when_full, teardown),
      cmocka_unit_test_teardown(test_help_opens_on_f1_and_question_mark, teardown),
      cmocka_unit_test(test_numbers_never_read_minus_zero),
      cmocka_unit_test_teardown(test_inspector_fields_are_the_agents_own, teardown),
      cmocka_unit_test_teardown(test_info_dock_scrolls_what_does_not_fit, teardown),
      cmocka_unit_test_teardown(test_selection_draws_every_radius, teardown),
      cmocka_unit_test_teardown(test_text_is_elided_not_clipped, teardown),
      cmocka_unit_test_teardown(test_open_a_scenario_from_the_list_or_a_drop, teardown),
      cmocka_unit_test_teardown(test_reload_shows_a_notice, teardown),
      cmocka_unit_test_teardown(test_drag_the_lamp_and_a_path_point, teardown),
      cmocka_unit_test_teardown(test_arrows_override_the_autopilot, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
