// test_window_console.c — the console dock (typed lines, history, completion, the keys it keeps) and stop on error (the pause, the frame, the failed step made again with the saved rule).
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "picture.h"
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

// Text typed, in events of at most 31 bytes as SDL sends them.
static void type(fbViewer *v, const char *text)
{
  for (size_t n; (n = strlen(text)) > 0; text += n < 31 ? n : 31) {
    SDL_Event e = {.type = SDL_TEXTINPUT};
    memcpy(e.text.text, text, n < 31 ? n : 31);
    fbViewer_HandleEvent(v, &e);
  }
}

// A line typed into the console and Enter pressed.
static void enter(fbViewer *v, const char *line)
{
  type(v, line);
  fbTest_Key(v, SDLK_RETURN, 0);
}

// The scroll-back's line k from the newest (0) back.
static const char *said(const fbConsoleDock *d, int k)
{
  assert_true(k < d->line_count);
  return d->lines[(d->first + d->line_count - 1 - k) % FB_CONSOLE_SCROLLBACK];
}

// Some line of the scroll-back holds text.
static bool has_said(const fbConsoleDock *d, const char *text)
{
  for (int k = 0; k < d->line_count; ++k) {
    if (strstr(said(d, k), text) != NULL) {
      return true;
    }
  }
  return false;
}

// With FB_CONSOLE_SHOTS=DIR the window as it is now, for docs/pictures (not a check).
static void shot(fbViewer *v, const char *name)
{
  const char *dir = getenv("FB_CONSOLE_SHOTS");
  if (dir != NULL) {
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    fbTest_Frames(v, 1);
    assert_true(fbPicture_WritePng(v->sdl, path, err, sizeof err));
  }
}

// ` opens the console with the keys; a line typed and entered shows its value, and keys that are
// the window's shortcuts (Space, R, Esc) are the console's while it has them.
static void test_a_typed_line_runs_and_keeps_the_keys(void **state)
{
  (void)state;
  char csv[128], json[160];
  snprintf(csv, sizeof csv, "/tmp/fb_window_console_%d.csv", (int)getpid());
  snprintf(json, sizeof json, "%s.json", csv);
  fbViewer *v = fbTest_OpenViewer(&viewer, "3", "scripts/classic_flock.lua", "--csv", csv, NULL);
  fbTest_Key(v, SDLK_SPACE, 0);  // paused: a Space the console took would run it again
  int dock = fbTest_Dock("console");
  assert_false(v->docks.open[dock]);
  fbTest_Key(v, SDLK_BACKQUOTE, 0);
  type(v, "`");  // the text event of the same key press: not typed
  assert_true(v->docks.open[dock]);
  assert_true(v->console.focus);
  fbTest_Key(v, SDLK_SPACE, 0);
  fbTest_Key(v, SDLK_r, 0);
  type(v, "fb.count() ");
  fbTest_Key(v, SDLK_RETURN, 0);
  assert_true(v->paused);
  assert_string_equal(said(&v->console, 1), "> fb.count()");
  assert_string_equal(said(&v->console, 0), "300");
  assert_string_equal(v->console.input, "");
  // An error, and a value shown readably; every line is in the run's record.
  enter(v, "nosuch.field");
  assert_true(has_said(&v->console, "attempt to index"));
  assert_true(has_said(&v->console, "stack traceback"));
  enter(v, "{1, 2, x = {y = true}}");
  assert_string_equal(said(&v->console, 0), "{1, 2, x = {y = true}}");
  assert_int_equal(v->console.console.record_count, 3);
  // sel is the window's selected agent.
  v->selected = 12;
  enter(v, "sel.id");
  assert_string_equal(said(&v->console, 0), "12");
  // Esc gives the keys back, the console staying open; Esc then is the window's again.
  fbTest_Key(v, SDLK_ESCAPE, 0);
  assert_false(v->console.focus);
  assert_true(v->docks.open[dock]);
  assert_false(v->quit);
  fbTest_Key(v, SDLK_SPACE, 0);
  assert_false(v->paused);
  // ` takes them again, and ` while it has them closes it.
  fbTest_Key(v, SDLK_BACKQUOTE, 0);
  assert_true(v->console.focus);
  fbTest_Key(v, SDLK_BACKQUOTE, 0);
  assert_false(v->console.focus);
  assert_false(v->docks.open[dock]);
  // A click on the console takes the keys, a click on the world gives them back.
  fbTest_Key(v, SDLK_BACKQUOTE, 0);
  fbTest_Key(v, SDLK_ESCAPE, 0);
  fbTest_Frames(v, 1);
  SDL_Rect c = v->layout.dock[dock];
  fbTest_Mouse(v, SDL_MOUSEBUTTONDOWN, c.x + c.w / 2, c.y + c.h / 2);
  fbTest_Frames(v, 1);
  fbTest_Mouse(v, SDL_MOUSEBUTTONUP, c.x + c.w / 2, c.y + c.h / 2);
  assert_true(v->console.focus);
  fbTest_Mouse(v, SDL_MOUSEBUTTONDOWN, v->layout.world.x + 5, v->layout.world.y + 5);
  fbTest_Mouse(v, SDL_MOUSEBUTTONUP, v->layout.world.x + 5, v->layout.world.y + 5);
  assert_false(v->console.focus);
  // The lines that ran are in the run's metadata, as a headless console's are.
  fbViewer_Destroy(v);
  FILE *f = fopen(json, "r");
  assert_non_null(f);
  static char text[1 << 16];
  text[fread(text, 1, sizeof text - 1, f)] = '\0';
  fclose(f);
  assert_non_null(strstr(text, "\"line\": \"fb.count()\", \"ok\": true"));
  assert_non_null(strstr(text, "\"line\": \"nosuch.field\", \"ok\": false"));
  assert_non_null(strstr(text, "\"line\": \"sel.id\""));
  unlink(json);
  unlink(csv);
}

// Up and Down go through the lines entered, the newest first, back to an empty line; the cursor
// keys edit in the middle of a line.
static void test_history_and_editing(void **state)
{
  (void)state;
  fbViewer *v = fbTest_OpenViewer(&viewer, "3", "scripts/classic_flock.lua", NULL);
  fbTest_Key(v, SDLK_BACKQUOTE, 0);
  enter(v, "1 + 1");
  enter(v, "2 + 2");
  fbTest_Key(v, SDLK_UP, 0);
  assert_string_equal(v->console.input, "2 + 2");
  fbTest_Key(v, SDLK_UP, 0);
  assert_string_equal(v->console.input, "1 + 1");
  fbTest_Key(v, SDLK_UP, 0);
  assert_string_equal(v->console.input, "1 + 1");  // the oldest stays
  fbTest_Key(v, SDLK_DOWN, 0);
  fbTest_Key(v, SDLK_DOWN, 0);
  assert_string_equal(v->console.input, "");
  fbTest_Key(v, SDLK_UP, 0);
  fbTest_Key(v, SDLK_LEFT, 0);
  fbTest_Key(v, SDLK_LEFT, 0);
  fbTest_Key(v, SDLK_BACKSPACE, 0);
  type(v, "*");
  assert_string_equal(v->console.input, "2 * 2");
  fbTest_Key(v, SDLK_RETURN, 0);
  assert_string_equal(said(&v->console, 0), "4");
  assert_false(v->paused);  // the arrows were the console's: nothing else moved
}

// Tab completes the word before the cursor: fb's functions, a record's fields, a global, the
// names inside a string; several candidates are listed and the word extended to what they share.
static void test_tab_completion(void **state)
{
  (void)state;
  fbViewer *v = fbTest_OpenViewer(&viewer, "3", "scripts/classic_flock.lua", NULL);
  fbTest_Key(v, SDLK_BACKQUOTE, 0);
  type(v, "fb.cou");
  fbTest_Key(v, SDLK_TAB, 0);
  assert_string_equal(v->console.input, "fb.count");
  fbConsoleDock_Say(&v->console, "(mark)");
  type(v, "() + fb.s");
  fbTest_Key(v, SDLK_TAB, 0);
  assert_string_equal(v->console.input, "fb.count() + fb.s");  // set_param, spawn, stop, ...: nothing shared
  assert_non_null(strstr(said(&v->console, 0), "fb.spawn"));
  assert_non_null(strstr(said(&v->console, 0), "fb.set_param"));
  fbTest_Key(v, SDLK_HOME, 0);
  fbTest_Key(v, SDLK_END, 0);
  for (int k = 0; k < 30; ++k) {
    fbTest_Key(v, SDLK_BACKSPACE, 0);
  }
  v->selected = 5;
  type(v, "sel.spe");
  fbTest_Key(v, SDLK_TAB, 0);
  assert_true(strncmp(v->console.input, "sel.spe", 7) == 0);  // speed, species
  assert_true(has_said(&v->console, "sel.speed"));
  fbTest_Key(v, SDLK_END, 0);
  for (int k = 0; k < 30; ++k) {
    fbTest_Key(v, SDLK_BACKSPACE, 0);
  }
  type(v, "fb.set_param(\"bo");
  fbTest_Key(v, SDLK_TAB, 0);
  type(v, "\", \"cohesion\", \"div");
  fbTest_Key(v, SDLK_TAB, 0);
  assert_string_equal(v->console.input, "fb.set_param(\"boid\", \"cohesion\", \"divisor");
  type(v, "\", 50)");
  fbTest_Key(v, SDLK_RETURN, 0);
  assert_false(has_said(&v->console, "fb.set_param: "));  // it ran, and was accepted
}

// ---- stop on error ------------------------------------------------------------------------------

static char dir[256], scenario[300], rule[400];

// A rule that steers every agent a little and, broken, raises for agent 7 from step 3: fixed, the
// same rule without the error, so that a run with the fixed rule from the start is the broken
// run's until step 3.
static void write_rule(bool broken)
{
  FILE *f = fopen(rule, "w");
  assert_non_null(f);
  fprintf(f, "-- stop_rule.lua — steers east a little; %s\n"
             "return {\n"
             "  params = { victim = { 7, help = \"who\" }, after = { 3, help = \"from\" } },\n"
             "  steer = function(a, p)\n"
             "    local step = fb.time()\n"
             "    local offset = { x = a.x - 50, y = a.y - 50 }\n"
             "    %s\n"
             "    return 0.5 + 0.01 * offset.y, 0.1\n"
             "  end,\n"
             "}\n",
          broken ? "fails for one agent" : "fixed",
          broken ? "if a.id == p.victim and step >= p.after then error(\"agent \" .. a.id .. \" failed\") end" : "");
  fclose(f);
}

static void write_scenario(void)
{
  snprintf(dir, sizeof dir, "tests/data/stop_on_error_%d", (int)getpid());
  char behaviours[300];
  snprintf(behaviours, sizeof behaviours, "%s/behaviours", dir);
  assert_int_equal(mkdir(dir, 0755) == 0 || errno == EEXIST, 1);
  assert_int_equal(mkdir(behaviours, 0755) == 0 || errno == EEXIST, 1);
  snprintf(scenario, sizeof scenario, "%s/scenario.lua", dir);
  snprintf(rule, sizeof rule, "%s/stop_rule.lua", behaviours);
  FILE *f = fopen(scenario, "w");
  assert_non_null(f);
  fputs("-- scenario.lua — a flock with a rule that fails (test_window_console.c)\n"
        "return {\n"
        "  world = { width = 100, height = 100, dt = 0.05 },\n"
        "  behaviours = { \"behaviours\" },\n"
        "  species = { { name = \"boid\", count = 30,\n"
        "    rules = { { \"separation\", params = { divisor = 20 } }, { \"stop_rule\" } } } },\n"
        "}\n",
        f);
  fclose(f);
}

static void remove_scenario(void)
{
  unlink(rule);
  unlink(scenario);
  char behaviours[300];
  snprintf(behaviours, sizeof behaviours, "%s/behaviours", dir);
  rmdir(behaviours);
  rmdir(dir);
}

static uint64_t step_of(fbViewer *v) { return fbSim_World(v->run->sim)->step; }

// The state at step `to` of a run that had the fixed rule from the start.
static uint64_t fixed_from_the_start(uint64_t to)
{
  fbViewer *v = fbTest_OpenViewer(&viewer, "3", scenario, NULL);
  fbTest_Key(v, SDLK_SPACE, 0);
  while (step_of(v) < to) {
    fbTest_Key(v, SDLK_PERIOD, 0);
    fbTest_Frames(v, 1);
  }
  uint64_t hash = fbSim_Hash(v->run->sim);
  fbViewer_Destroy(v);
  return hash;
}

// Paused at the step the rule failed in, its agent selected, its traceback and locals in the
// console (lines see them); the fixed rule saved, that step is made again from the state before
// it, and the run is then the one the fixed rule makes from the start.
static void test_stop_on_error_and_make_the_step_again(void **state)
{
  (void)state;
  write_scenario();
  write_rule(false);
  uint64_t fixed_at_4 = fixed_from_the_start(4);
  write_rule(true);
  fbViewer *v = fbTest_OpenViewer(&viewer, "3", scenario, NULL);
  assert_true(v->error_stop.on);  // on by default in the window
  for (int k = 0; k < 600 && !v->error_stop.stopped; ++k) {
    fbTest_Frames(v, 1);
  }
  assert_true(v->error_stop.stopped);
  assert_int_equal(step_of(v), 4);  // stopped after step 3 -> 4, the one that failed
  assert_true(v->paused);
  assert_int_equal(v->selected, 7);
  int dock = fbTest_Dock("console");
  assert_true(v->docks.open[dock]);
  assert_true(has_said(&v->console, "stopped at step 4"));
  assert_true(has_said(&v->console, "agent 7 failed"));
  assert_true(has_said(&v->console, "stack traceback"));
  assert_true(has_said(&v->console, "offset = {x = "));
  fbTest_Key(v, SDLK_BACKQUOTE, 0);
  enter(v, "offset.x == a.x - 50, p.victim, sel.id, step");
  assert_string_equal(said(&v->console, 0), "true    7    7    3");
  fbTest_Frames(v, 30);
  assert_int_equal(step_of(v), 4);  // stays stopped
  write_rule(false);
  for (int k = 0; k < 6000 && strstr(v->notice, "made again") == NULL; ++k) {  // up to a minute: a hang guard
    SDL_Delay(10);  // the save settles in real time
    fbTest_Frames(v, 1);
  }
  assert_non_null(strstr(v->notice, "made again"));
  print_message("the failed step made again: %.2f ms of CPU time (restore and one step of 30 agents)\n", v->rerun_ms);
  assert_false(v->error_stop.stopped);
  assert_true(v->paused);
  assert_int_equal(step_of(v), 4);
  assert_int_equal(v->run->steps, 4);
  assert_int_equal(fbSim_Hash(v->run->sim), fixed_at_4);
  fbViewer_Destroy(v);
  remove_scenario();
}

// E turns it off: the failing rule is switched off and the run goes on, as headless.
static void test_stop_on_error_off(void **state)
{
  (void)state;
  write_scenario();
  write_rule(true);
  fbViewer *v = fbTest_OpenViewer(&viewer, "3", scenario, NULL);
  fbTest_Key(v, SDLK_e, 0);
  assert_false(v->error_stop.on);
  for (int k = 0; k < 60 && step_of(v) < 8; ++k) {
    fbTest_Frames(v, 1);
  }
  assert_true(step_of(v) >= 8);
  assert_false(v->error_stop.stopped);
  assert_false(v->paused);
  fbViewer_Destroy(v);
  remove_scenario();
}

// With FB_CONSOLE_SHOTS=DIR: the pictures of docs/window.md at two sizes, stopped at
// tests/data/console_break.lua's failing rule with a line run and a completion listed.
static void test_pictures_for_the_docs(void **state)
{
  (void)state;
  static const char *const sizes[] = {"1280x800", "900x600"};
  for (int k = 0; k < 2 && getenv("FB_CONSOLE_SHOTS") != NULL; ++k) {
    fbViewer *v = fbTest_OpenViewer(&viewer, "1", "tests/data/console_break.lua", "--size", sizes[k], NULL);
    for (int f = 0; f < 600 && !v->error_stop.stopped; ++f) {
      fbTest_Frames(v, 1);
    }
    assert_true(v->error_stop.stopped);
    fbTest_Key(v, SDLK_BACKQUOTE, 0);
    enter(v, "offset.x == a.x - 50, p.victim, sel.id");
    type(v, "sel.v");
    fbTest_Key(v, SDLK_TAB, 0);
    char name[64];
    snprintf(name, sizeof name, "window_console_%s.png", sizes[k]);
    shot(v, name);
    fbViewer_Destroy(v);
  }
}

static double cpu_seconds(void)
{
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// What keeping the state before each step costs against the step itself: process CPU time over 50
// steps of classic_flock with 3 000 boids, printed for docs/window.md (a number, not a check).
static void test_cost_of_keeping_the_state(void **state)
{
  (void)state;
  fbViewer *v = fbTest_OpenViewer(&viewer, "3", "scripts/classic_flock.lua", "--set", "boid.count=3000", NULL);
  double snapshot = 0, step = 0;
  for (int k = 0; k < 50; ++k) {
    double t0 = cpu_seconds();
    fbErrorStop_BeforeStep(&v->error_stop, v->run->sim);
    double t1 = cpu_seconds();
    fbRun_Step(v->run);
    snapshot += t1 - t0;
    step += cpu_seconds() - t1;
  }
  assert_true(v->error_stop.have_before);
  print_message("3000 boids: the state kept before a step %.3f ms (%zu bytes), the step %.3f ms of CPU time\n",
                1e3 * snapshot / 50, v->error_stop.before.len, 1e3 * step / 50);
}

int main(void)
{
  setenv("SDL_VIDEODRIVER", "dummy", 1);  // no display needed: a window with a software renderer
  unsetenv("DISPLAY");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_a_typed_line_runs_and_keeps_the_keys, teardown),
      cmocka_unit_test_teardown(test_history_and_editing, teardown),
      cmocka_unit_test_teardown(test_tab_completion, teardown),
      cmocka_unit_test_teardown(test_stop_on_error_and_make_the_step_again, teardown),
      cmocka_unit_test_teardown(test_stop_on_error_off, teardown),
      cmocka_unit_test_teardown(test_cost_of_keeping_the_state, teardown),
      cmocka_unit_test_teardown(test_pictures_for_the_docs, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
