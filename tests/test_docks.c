// test_docks.c — every entry of the dock table: its key, its --show names, its place beside the world, its drawing.
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "help.h"
#include "view_util.h"

static fbViewer viewer;

static int teardown(void **state)
{
  (void)state;
  if (viewer.run != NULL) {
    fbViewer_Destroy(&viewer);
  }
  return 0;
}

static bool empty(SDL_Rect r) { return r.w <= 0 || r.h <= 0; }

static bool overlaps(SDL_Rect a, SDL_Rect b) { return !empty(a) && !empty(b) && SDL_HasIntersection(&a, &b); }

static bool within(SDL_Rect outer, SDL_Rect r)
{
  return r.x >= outer.x && r.y >= outer.y && r.x + r.w <= outer.x + outer.w && r.y + r.h <= outer.y + outer.h;
}

static long area(SDL_Rect r) { return empty(r) ? 0 : (long)r.w * r.h; }

// The entries themselves: a name, a key and help for each, none shared, and room for all of them.
static void test_every_entry_is_complete_and_its_own(void **state)
{
  (void)state;
  assert_true(fbDockCount >= 1 && fbDockCount <= FB_DOCK_MAX);
  for (int k = 0; k < fbDockCount; ++k) {
    const fbDock *d = &fbDockTable[k];
    assert_true(d->name[0] != '\0' && d->name[0] != '-' && strchr(d->name, ',') == NULL);
    assert_non_null(d->title);
    assert_true(d->key_name[0] != '\0' && d->brief[0] != '\0' && d->meaning[0] != '\0');
    assert_true(d->percent > 0 && d->min_px > 0 && d->min_px <= d->max_px);
    assert_non_null(d->draw);
    assert_int_equal(fbDock_Find(d->name), k);
    assert_int_equal(fbDock_ForKey(d->key), k);  // no other dock has its key
  }
}

// Each dock's key reaches it, through the input layer and through the viewer, and toggles only it.
static void test_every_dock_opens_and_closes_by_its_key(void **state)
{
  (void)state;
  fbViewer *v = fbTest_OpenViewer(&viewer, "3", "scripts/classic_flock.lua", NULL);
  for (int k = 0; k < fbDockCount; ++k) {
    SDL_Event e = {.type = SDL_KEYDOWN};
    e.key.keysym.sym = fbDockTable[k].key;
    fbInput in = {0};
    fbAction a = fbInput_Event(&in, &e, &v->camera, false);
    assert_int_equal(a.kind, FB_ACTION_DOCK);
    assert_int_equal(a.dock, k);
    fbDocks before = v->docks;
    fbTest_Key(v, fbDockTable[k].key, 0);
    fbTest_Frames(v, 1);
    for (int j = 0; j < fbDockCount; ++j) {
      assert_int_equal(v->docks.open[j], j == k ? !before.open[j] : before.open[j]);
    }
    assert_int_equal(empty(v->layout.dock[k]), !v->docks.open[k]);  // a closed dock gives its room back
    fbTest_Key(v, fbDockTable[k].key, KMOD_SHIFT);
    assert_int_equal(v->docks.open[k], before.open[k]);
  }
  // The key bar and the help overlay list every dock's key with the viewer's own.
  assert_true(fbHelp_KeyCount() > fbDockCount);
}

static fbDocks parsed_docks(const char *show)
{
  char *argv[] = {"flockbox", "--show", (char *)show, "scripts/classic_flock.lua"};
  fbCli cli;
  fbWindowOptions window;
  char err[1024];
  assert_int_equal(fbWindowOptions_Parse(&cli, &window, 4, argv, err, sizeof err), FB_CLI_RUN);
  return window.docks;
}

// --show NAME opens a dock at the start and --show -NAME closes it; --help and the message for an
// unknown name name every dock.
static void test_every_dock_is_named_by_show(void **state)
{
  (void)state;
  char all[512] = "";
  for (int k = 0; k < fbDockCount; ++k) {
    const fbDock *d = &fbDockTable[k];
    char minus[64];
    snprintf(minus, sizeof minus, "-%s", d->name);
    assert_true(parsed_docks(d->name).open[k]);
    assert_false(parsed_docks(minus).open[k]);
    assert_non_null(strstr(fbWindowOptions_Help(), d->open ? minus : d->name));
    snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", k ? "," : "", d->name);
  }
  char *argv[] = {"flockbox", "--show", "nonsense", "scripts/classic_flock.lua"};
  fbCli cli;
  fbWindowOptions window;
  char err[1024];
  assert_int_equal(fbWindowOptions_Parse(&cli, &window, 4, argv, err, sizeof err), FB_CLI_BAD);
  for (int k = 0; k < fbDockCount; ++k) {
    assert_non_null(strstr(err, fbDockTable[k].name));
  }
  // Every dock named: the window opens with all of them.
  fbViewer *v = fbTest_OpenViewer(&viewer, "3", "scripts/classic_flock.lua", "--show", all, NULL);
  for (int k = 0; k < fbDockCount; ++k) {
    assert_true(v->docks.open[k]);
  }
}

// One layout: every open dock inside the window above the key bar, off the world and off each
// other; a closed one empty; the world keeps a third of the width and half of the height; and the
// docks, the world and the key bar together cover the window.
static void check_layout(int w, int h, int line_h, fbDocks open)
{
  fbLayout l = fbLayout_Compute(w, h, open, line_h);
  SDL_Rect body = {0, 0, w, l.keys.y};
  long covered = area(l.world) + area(l.keys);
  assert_true(within(body, l.world) && l.world.w >= w / 3 && l.world.h >= body.h / 2);
  for (int k = 0; k < fbDockCount; ++k) {
    SDL_Rect d = l.dock[k];
    assert_int_equal(empty(d), !open.open[k]);
    if (empty(d)) {
      continue;
    }
    assert_true(within(body, d));
    assert_false(overlaps(d, l.world));
    for (int j = 0; j < k; ++j) {
      assert_false(overlaps(d, l.dock[j]));
    }
    covered += area(d);
  }
  assert_int_equal(covered, (long)w * h);
}

// Every set of open docks, at a small and a large window: the pure layout, then the window itself
// with every dock open, where each dock draws inside its rectangle.
static void test_every_dock_lays_out_beside_the_world(void **state)
{
  (void)state;
  static const int sizes[][2] = {{800, 600}, {1920, 1080}, {900, 600}, {320, 240}};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    for (unsigned set = 0; set < 1u << fbDockCount; ++set) {
      fbDocks open = {{false}};
      for (int k = 0; k < fbDockCount; ++k) {
        open.open[k] = set & 1u << k;
      }
      check_layout(sizes[s][0], sizes[s][1], 18, open);
    }
  }
  char all[512] = "";
  for (int k = 0; k < fbDockCount; ++k) {
    snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", k ? "," : "", fbDockTable[k].name);
  }
  for (int s = 0; s < 2; ++s) {
    char size[32];
    snprintf(size, sizeof size, "%dx%d", sizes[s][0], sizes[s][1]);
    fbViewer *v = fbTest_OpenViewer(&viewer, "3", "scripts/classic_flock.lua", "--size", size, "--show", all, NULL);
    fbTest_Frames(v, 2);
    check_layout(sizes[s][0], sizes[s][1], v->hud.line_h, v->docks);
    for (int k = 0; k < fbDockCount; ++k) {
      SDL_Rect r = v->layout.dock[k];
      assert_false(overlaps(r, v->layout.world));
      // Drawn: the dock is not the window's bare background (22, 24, 28) at its centre.
      uint8_t rgba[4];
      SDL_RenderReadPixels(v->sdl, &(SDL_Rect){r.x + r.w / 2, r.y + r.h / 2, 1, 1}, SDL_PIXELFORMAT_RGBA32, rgba, 4);
      assert_false(rgba[0] == 22 && rgba[1] == 24 && rgba[2] == 28);
    }
    fbViewer_Destroy(v);
  }
}

int main(void)
{
  setenv("SDL_VIDEODRIVER", "dummy", 1);  // no display needed: a window with a software renderer
  unsetenv("DISPLAY");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_entry_is_complete_and_its_own),
      cmocka_unit_test_teardown(test_every_dock_opens_and_closes_by_its_key, teardown),
      cmocka_unit_test_teardown(test_every_dock_is_named_by_show, teardown),
      cmocka_unit_test_teardown(test_every_dock_lays_out_beside_the_world, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
