// test_window_rewind.c — Backspace goes back to a snapshot, paused, plots and trails cut back; stepping on gives the same run again.
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>

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
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
