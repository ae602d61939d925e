// test_window_trace.c — the trace dock: the selected agent's next step traced into the dock's lines, scrolled, and the run unchanged by it.
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "view_util.h"

static fbViewer viewer;

#define STEPS 12  // steps made with '.', the trace asked for at TRACED
#define TRACED 5

static int teardown(void **state)
{
  (void)state;
  if (viewer.run != NULL) {
    fbViewer_Destroy(&viewer);
  }
  return 0;
}

// Paused, then STEPS steps with '.', a frame after each; the trace dock opened with X before the
// step TRACED when trace is set. The state hash at the end.
static uint64_t stepped_run(fbViewer *v, bool trace)
{
  fbTest_Key(v, SDLK_SPACE, 0);
  fbTest_Frames(v, 1);
  uint64_t from = fbSim_World(v->run->sim)->step;
  while (fbSim_World(v->run->sim)->step < from + STEPS) {
    if (trace && fbSim_World(v->run->sim)->step == from + TRACED) {
      fbTest_Key(v, SDLK_x, 0);
    }
    fbTest_Key(v, SDLK_PERIOD, 0);
    fbTest_Frames(v, 1);
  }
  return fbSim_Hash(v->run->sim);
}

// The first of the dock's lines that holds every one of the words, or NULL.
static const char *line_with(const fbTraceDock *d, const char *a, const char *b)
{
  for (int k = 0; k < d->line_count; ++k) {
    if (strstr(d->lines[k], a) != NULL && (b == NULL || strstr(d->lines[k], b) != NULL)) {
      return d->lines[k];
    }
  }
  return NULL;
}

// Agent 5 selected, the dock open: the lines of its step name its rules (cohesion.lua), a local
// that a line assigned (its value after "--") and the combiner's replay with each rule's weight;
// the run is the one made with no dock and no agent selected.
static void test_the_dock_traces_the_selected_agents_step(void **state)
{
  (void)state;
  fbViewer *v = fbTest_OpenViewer(&viewer, "3", "scripts/classic_flock.lua", NULL);
  const uint64_t plain = stepped_run(v, false);
  fbViewer_Destroy(v);

  v = fbTest_OpenViewer(&viewer, "3", "scripts/classic_flock.lua", "--inspect", "5", NULL);
  const int dock = fbTest_Dock("trace");
  assert_false(v->docks.open[dock]);
  assert_int_equal(stepped_run(v, true), plain);
  assert_true(v->docks.open[dock]);
  const fbTraceDock *d = &v->trace;
  assert_int_equal(d->agent, 5);
  assert_true(d->line_count > 10);
  assert_non_null(line_with(d, "agent 5 ", NULL));
  assert_non_null(line_with(d, "rule ", "cohesion.lua"));
  assert_non_null(line_with(d, "local step = p.step", "-- step = "));
  assert_non_null(line_with(d, "combined (", NULL));
  assert_non_null(line_with(d, "x weight ", "puts in"));
  assert_false(d->tracing);  // the trace ends with its step
}

// Page Down and Page Up move the lines shown by a page, within the trace; the wheel is the
// widgets' (fbUi_Wheel), as every dock's.
static void test_page_keys_scroll_the_trace(void **state)
{
  (void)state;
  fbViewer *v = fbTest_OpenViewer(&viewer, "3", "scripts/classic_flock.lua", "--inspect", "5", "--show", "trace", NULL);
  fbTest_Key(v, SDLK_SPACE, 0);
  fbTest_Key(v, SDLK_PERIOD, 0);
  fbTest_Frames(v, 2);
  fbTraceDock *d = &v->trace;
  assert_true(d->line_count > d->page && d->page > 0);
  assert_int_equal(d->scroll, 0);
  fbTest_Key(v, SDLK_PAGEDOWN, 0);
  fbTest_Frames(v, 1);
  assert_int_equal(d->scroll, d->page);
  for (int k = 0; k < 1000; ++k) {
    fbTest_Key(v, SDLK_PAGEDOWN, 0);
  }
  fbTest_Frames(v, 1);
  assert_true(d->scroll < d->line_count && d->scroll > 0);  // the last page stays full
  fbTest_Key(v, SDLK_PAGEUP, 0);
  fbTest_Key(v, SDLK_PAGEUP, 0);
  fbTest_Frames(v, 1);
  assert_true(d->scroll >= 0);
}

// With no agent selected the dock traces nothing (it says how to select one) and the run goes on.
static void test_without_a_selection_nothing_is_traced(void **state)
{
  (void)state;
  fbViewer *v = fbTest_OpenViewer(&viewer, "3", "scripts/classic_flock.lua", "--show", "trace", NULL);
  fbTest_Key(v, SDLK_SPACE, 0);
  fbTest_Key(v, SDLK_PERIOD, 0);
  fbTest_Frames(v, 2);
  assert_true(v->docks.open[fbTest_Dock("trace")]);
  assert_int_equal(v->trace.line_count, 0);
  assert_int_equal(v->trace.agent, 0);
}

int main(void)
{
  setenv("SDL_VIDEODRIVER", "dummy", 1);  // no display needed: a window with a software renderer
  unsetenv("DISPLAY");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_the_dock_traces_the_selected_agents_step, teardown),
      cmocka_unit_test_teardown(test_page_keys_scroll_the_trace, teardown),
      cmocka_unit_test_teardown(test_without_a_selection_nothing_is_traced, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
