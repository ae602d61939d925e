// test_window_rewind.c — Backspace and the timeline go back to a snapshot or a step, paused, plots and trails cut back; stepping on gives the same run again.
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"  // white-box: the hooks' metrics and the step
#include "view_util.h"

static fbViewer viewer;

static uint64_t step_of(fbViewer *v) { return fbSim_World(v->run->sim)->step; }

// One step at a time with '.', each followed by a frame, up to step `to`.
static void step_to(fbViewer *v, uint64_t to)
{
  while (step_of(v) < to) {
    fbTest_Key(v, SDLK_PERIOD, 0);
    fbTest_Frames(v, 1);
  }
  assert_int_equal(step_of(v), to);
}

static double landings(fbViewer *v)
{
  double m[FB_MAX_METRICS];
  assert_true(fbSim_Metrics(v->run->sim, m));
  return m[1];  // perching_birds.lua: perched, landings (an upvalue of its hooks)
}

static void test_rewind_and_resume(void **state)
{
  (void)state;
  fbTest_OpenViewer(&viewer, "3", "scripts/perching_birds.lua", "--show", "trails", NULL);
  fbTest_Key(&viewer, SDLK_SPACE, 0);  // pause: '.' steps one at a time
  step_to(&viewer, 100);
  uint64_t at_100 = fbSim_Hash(viewer.run->sim);
  step_to(&viewer, 160);
  uint64_t at_160 = fbSim_Hash(viewer.run->sim);
  double landed_160 = landings(&viewer);
  assert_true(landed_160 > 0);
  assert_true(viewer.plots.last_time > 7.0);

  fbTest_Key(&viewer, SDLK_BACKSPACE, 0);
  assert_int_equal(step_of(&viewer), 150);
  fbTest_Key(&viewer, SDLK_BACKSPACE, 0);
  assert_int_equal(step_of(&viewer), 100);
  assert_int_equal(fbSim_Hash(viewer.run->sim), at_100);
  assert_true(viewer.paused);
  assert_true(viewer.plots.last_time <= 5.0 + 1e-6);  // the plots do not show a future now undone
  assert_int_equal(viewer.run->steps, 100);

  step_to(&viewer, 160);  // the same rules: the same run again, hook counters included
  assert_int_equal(fbSim_Hash(viewer.run->sim), at_160);
  assert_true(landings(&viewer) == landed_160);

  // Back past the start: the first snapshot (step 0) and no further.
  for (int k = 0; k < 6; ++k) {
    fbTest_Key(&viewer, SDLK_BACKSPACE, 0);
  }
  assert_int_equal(step_of(&viewer), 0);
}

// The ring keeps to its budget by thinning: with room for a few snapshots it still reaches back to step 0.
static void test_budget_thins(void **state)
{
  (void)state;
  fbTest_OpenViewer(&viewer, "3", "scripts/classic_flock.lua", NULL);
  fbRewind_Free(&viewer.rewind);
  fbRewind_Init(&viewer.rewind, 4 * 40000);  // classic_flock: about 34 kB a snapshot
  fbRewind_Note(&viewer.rewind, viewer.run->sim);
  fbTest_Key(&viewer, SDLK_SPACE, 0);
  step_to(&viewer, 600);
  assert_true(viewer.rewind.bytes <= 4 * 40000);
  assert_true(viewer.rewind.interval > FB_REWIND_INTERVAL);
  assert_int_equal(viewer.rewind.shots[0].step, 0);
}

// ---- the timeline -------------------------------------------------------------------------------

#define RUN_STEPS 200
static uint64_t straight[RUN_STEPS + 1];  // the state hash of a straight run at each step

// Paused, one step at a time to RUN_STEPS, the hash of every step kept: the straight run.
static void run_straight(fbViewer *v)
{
  fbTest_Key(v, SDLK_SPACE, 0);
  straight[0] = fbSim_Hash(v->run->sim);
  for (uint64_t s = 1; s <= RUN_STEPS; ++s) {
    step_to(v, s);
    straight[s] = fbSim_Hash(v->run->sim);
  }
}

#define mouse fbTest_Mouse

// The timeline's bar as drawn last frame, and what it spans now.
static SDL_Rect bar_of(fbViewer *v, fbTimeline *t)
{
  *t = (fbTimeline){&v->rewind, step_of(v), v->seeking, v->seek_to, false, 0};
  return fbTimeline_Bar(v->layout.dock[fbTest_Dock("timeline")], v->hud.line_h);
}

// The x on the bar nearest to step.
static int x_for(fbViewer *v, uint64_t step)
{
  fbTimeline t;
  SDL_Rect bar = bar_of(v, &t);
  uint64_t first, last;
  fbTimeline_Span(&t, &first, &last);
  return bar.x + (int)lround((double)(step - first) / (double)(last - first) * (bar.w - 1));
}

// Frames until the viewer has stepped on to the step the timeline asked for.
static void settle(fbViewer *v)
{
  for (int k = 0; k < 600 && v->seeking; ++k) {
    fbTest_Frames(v, 1);
  }
  assert_false(v->seeking);
}

// A click on the bar: the step under it exactly, paused, in the state the straight run had there.
static uint64_t click_at(fbViewer *v, int x)
{
  fbTimeline t;
  SDL_Rect bar = bar_of(v, &t);
  uint64_t asked = fbTimeline_StepAt(&t, bar, x);
  int y = bar.y + bar.h / 2;
  mouse(v, SDL_MOUSEBUTTONDOWN, x, y);
  mouse(v, SDL_MOUSEBUTTONUP, x, y);
  fbTest_Frames(v, 1);
  settle(v);
  assert_int_equal(step_of(v), asked);
  assert_true(v->paused);
  assert_int_equal(fbSim_Hash(v->run->sim), straight[asked]);
  return asked;
}

static void test_timeline_click_goes_to_the_step(void **state)
{
  (void)state;
  fbViewer *v = fbTest_OpenViewer(&viewer, "3", "scripts/perching_birds.lua", "--size", "800x600", NULL);
  run_straight(v);
  // Between snapshots (every 50 steps): back to the one before, then on to the step.
  uint64_t at = click_at(v, x_for(v, 130));
  assert_true(at % 50 != 0 && at > 100 && at < 160);
  assert_int_equal(v->run->steps, (long)at);
  // The snapshots after it are kept: the timeline still spans the run, and goes forward again.
  assert_int_equal(v->rewind.shots[v->rewind.count - 1].step, RUN_STEPS);
  at = click_at(v, x_for(v, 185));
  assert_true(at > 150 && at < RUN_STEPS);
  // Back before the first interval, and to the very start.
  click_at(v, x_for(v, 20));
  assert_int_equal(click_at(v, x_for(v, 0)), 0);
  // Shift+Backspace: on to the next snapshot; Backspace back to the one before.
  fbTest_Key(v, SDLK_BACKSPACE, KMOD_SHIFT);
  assert_int_equal(step_of(v), 50);
  assert_int_equal(fbSim_Hash(v->run->sim), straight[50]);
  fbTest_Key(v, SDLK_BACKSPACE, KMOD_SHIFT);
  assert_int_equal(step_of(v), 100);
  fbTest_Key(v, SDLK_BACKSPACE, 0);
  assert_int_equal(step_of(v), 50);
  // Going on drops the snapshots after the step it goes on from: they belong to the undone future.
  step_to(v, 51);
  assert_int_equal(v->rewind.shots[v->rewind.count - 1].step, 50);
  fbTest_Key(v, SDLK_BACKSPACE, KMOD_SHIFT);
  assert_int_equal(step_of(v), 51);  // nothing later to go to
}

// A drag along the bar goes through the steps under the mouse and ends on the one it was let go at.
static void test_timeline_drag(void **state)
{
  (void)state;
  fbViewer *v = fbTest_OpenViewer(&viewer, "3", "scripts/perching_birds.lua", NULL);
  run_straight(v);
  fbTimeline t;
  SDL_Rect bar = bar_of(v, &t);
  int y = bar.y + bar.h / 2, from = x_for(v, 40), to = x_for(v, 170);
  uint64_t last_asked = fbTimeline_StepAt(&t, bar, to);
  mouse(v, SDL_MOUSEBUTTONDOWN, from, y);
  fbTest_Frames(v, 1);
  settle(v);
  assert_int_equal(step_of(v), fbTimeline_StepAt(&t, bar, from));
  uint64_t before = step_of(v);
  for (int x = from; x <= to; x += (to - from) / 6) {
    mouse(v, SDL_MOUSEMOTION, x, y + 30);  // off the bar: a drag keeps it
    fbTest_Frames(v, 1);
    settle(v);
    assert_true(step_of(v) >= before);  // a drag forward steps on, never back
    before = step_of(v);
  }
  mouse(v, SDL_MOUSEMOTION, to, y);
  mouse(v, SDL_MOUSEBUTTONUP, to, y);
  fbTest_Frames(v, 1);
  settle(v);
  assert_int_equal(step_of(v), last_asked);
  assert_int_equal(fbSim_Hash(v->run->sim), straight[last_asked]);
  assert_false(v->grab.kind != FB_GRAB_NONE);
  fbTest_Frames(v, 2);  // let go: the mouse moves nothing any more
  assert_int_equal(step_of(v), last_asked);
}

// A snapshot's size (the number docs/window.md gives): bytes per agent of classic_flock (300 boids,
// no declared fields).
static void test_snapshot_size(void **state)
{
  (void)state;
  fbViewer *v = fbTest_OpenViewer(&viewer, "3", "scripts/classic_flock.lua", NULL);
  assert_int_equal(v->rewind.count, 1);
  double per_agent = (double)v->rewind.shots[0].len / v->run->sim->world.agents.count;
  print_message("a snapshot of classic_flock: %zu bytes, %.1f per agent\n", v->rewind.shots[0].len, per_agent);
  assert_true(per_agent > 100 && per_agent < 125);
}

// --rewind-mb sets the budget: 1 MB keeps fewer snapshots, further apart, than the default over the
// same steps; 0 keeps none, and Backspace says rewind is off.
static void run_fast_to(fbViewer *v, uint64_t to)
{
  for (int k = 0; k < 6; ++k) {
    fbTest_Key(v, SDLK_PLUS, 0);  // x64
  }
  for (int k = 0; k < 2000 && step_of(v) < to; ++k) {
    fbTest_Frames(v, 1);
  }
  assert_true(step_of(v) >= to);
}

static void test_budget_option(void **state)
{
  (void)state;
  fbViewer *v = fbTest_OpenViewer(&viewer, "3", "scripts/classic_flock.lua", NULL);
  assert_true(v->rewind.budget == (size_t)256 << 20);
  run_fast_to(v, 2000);
  int kept_default = v->rewind.count;
  assert_int_equal(v->rewind.interval, FB_REWIND_INTERVAL);
  fbViewer_Destroy(v);

  v = fbTest_OpenViewer(&viewer, "3", "scripts/classic_flock.lua", "--rewind-mb", "1", NULL);
  assert_true(v->rewind.budget == (size_t)1 << 20);
  run_fast_to(v, 2000);
  assert_true(v->rewind.bytes <= (size_t)1 << 20);
  assert_true(v->rewind.interval > FB_REWIND_INTERVAL);
  assert_true(v->rewind.count < kept_default);
  assert_int_equal(v->rewind.shots[0].step, 0);
  fbViewer_Destroy(v);

  v = fbTest_OpenViewer(&viewer, "3", "scripts/classic_flock.lua", "--rewind-mb", "0", NULL);
  run_fast_to(v, 200);
  assert_int_equal(v->rewind.count, 0);
  uint64_t now = step_of(v);
  fbTest_Key(v, SDLK_BACKSPACE, 0);
  assert_int_equal(step_of(v), now);
  assert_non_null(strstr(v->notice, "rewind is off (--rewind-mb 0)"));
}

// Hooks keeping a table 16 deep: snapshots are taken (the window used to crash at step 50, the
// first snapshot after the start), and Backspace goes back to one.
static void test_deep_hook_data(void **state)
{
  (void)state;
  fbViewer *v = fbTest_OpenViewer(&viewer, "3", "tests/data/state_deep.lua", NULL);
  fbTest_Key(v, SDLK_SPACE, 0);
  step_to(v, 120);
  assert_false(v->rewind.off);
  assert_int_equal(v->rewind.count, 3);  // 0, 50, 100
  fbTest_Key(v, SDLK_BACKSPACE, 0);
  assert_int_equal(step_of(v), 100);
}

// Hooks keeping a table that holds itself: the first snapshot is refused, the window says so once
// and goes on without rewind; Backspace says why.
static void test_refused_snapshot_turns_rewind_off(void **state)
{
  (void)state;
  fbViewer *v = fbTest_OpenViewer(&viewer, "3", "tests/data/state_cycle.lua", NULL);
  assert_true(v->rewind.off);
  assert_int_equal(v->rewind.count, 0);
  assert_non_null(strstr(v->notice, "rewind off: hook upvalue 'on_step.seen' contains itself: a cycle"));
  long said_until = v->notice_until;
  fbTest_Key(v, SDLK_SPACE, 0);
  step_to(v, 120);  // past two snapshots' steps: nothing said again
  assert_int_equal(v->notice_until, said_until);
  assert_false(v->scenario_failed);
  fbTest_Key(v, SDLK_BACKSPACE, 0);
  assert_int_equal(step_of(v), 120);
  assert_non_null(strstr(v->notice, "cannot rewind: hook upvalue 'on_step.seen' contains itself: a cycle"));
  fbTest_Key(v, SDLK_SPACE, 0);
  fbTest_Frames(v, 30);  // running on
  assert_true(step_of(v) > 120);
}

static int teardown(void **state)
{
  (void)state;
  if (viewer.run != NULL) {
    fbViewer_Destroy(&viewer);
  }
  return 0;
}

int main(void)
{
  setenv("SDL_VIDEODRIVER", "dummy", 1);  // no display needed: a window with a software renderer
  unsetenv("DISPLAY");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_rewind_and_resume, teardown),
      cmocka_unit_test_teardown(test_budget_thins, teardown),
      cmocka_unit_test_teardown(test_timeline_click_goes_to_the_step, teardown),
      cmocka_unit_test_teardown(test_timeline_drag, teardown),
      cmocka_unit_test_teardown(test_snapshot_size, teardown),
      cmocka_unit_test_teardown(test_budget_option, teardown),
      cmocka_unit_test_teardown(test_deep_hook_data, teardown),
      cmocka_unit_test_teardown(test_refused_snapshot_turns_rewind_off, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
