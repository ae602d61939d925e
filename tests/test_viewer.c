// test_viewer.c — the window's input, driven by injected SDL events on SDL's dummy video driver (no display).
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <string.h>
#include <unistd.h>

#include "sim_internal.h"  // white-box: reads and sets the sim's members
#include "view_util.h"

#define SCENARIO "tests/data/view_test.lua"

static fbViewer viewer;

// A viewer on the test scenario. --frames makes every frame stand for exactly 1/60 s, so the steps
// a frame makes do not depend on how fast the test machine is.
static fbViewer *open_viewer(const char *option, const char *value)
{
  return fbTest_OpenViewer(&viewer, "3", SCENARIO, option, value, NULL);
}

static void frames(fbViewer *v, int n) { fbTest_Frames(v, n); }

static void key(fbViewer *v, SDL_Keycode sym, Uint16 mod) { fbTest_Key(v, sym, mod); }

static void mouse_button(fbViewer *v, Uint32 type, int x, int y)
{
  SDL_Event e = {0};
  e.type = type;
  e.button.button = SDL_BUTTON_LEFT;
  e.button.x = x;
  e.button.y = y;
  fbViewer_HandleEvent(v, &e);
}

static void mouse_move(fbViewer *v, int x, int y, int xrel, int yrel)
{
  SDL_Event e = {0};
  e.type = SDL_MOUSEMOTION;
  e.motion.x = x;
  e.motion.y = y;
  e.motion.xrel = xrel;
  e.motion.yrel = yrel;
  e.motion.state = SDL_BUTTON_LMASK;
  fbViewer_HandleEvent(v, &e);
}

static void click(fbViewer *v, int x, int y)
{
  mouse_button(v, SDL_MOUSEBUTTONDOWN, x, y);
  mouse_button(v, SDL_MOUSEBUTTONUP, x, y);
}

static fbVec2 on_screen(const fbViewer *v, int agent)
{
  const fbAgents *a = &v->run->sim->world.agents;
  return fbCamera_ToScreen(&v->camera, fbV(a->px[agent], a->py[agent]));
}

static int teardown(void **state)
{
  (void)state;
  if (viewer.run != NULL) {
    fbViewer_Destroy(&viewer);
  }
  return 0;
}

static void test_pause_and_single_step(void **state)
{
  (void)state;
  fbViewer *v = open_viewer(NULL, NULL);
  const fbWorld *w = &v->run->sim->world;
  frames(v, 30);  // dt 0.05 at real time: a step every 3 frames
  assert_int_equal(w->step, 10);
  key(v, SDLK_SPACE, 0);
  assert_true(v->paused);
  frames(v, 30);
  assert_int_equal(w->step, 10);
  key(v, SDLK_PERIOD, 0);
  frames(v, 5);
  assert_int_equal(w->step, 11);
  key(v, SDLK_PERIOD, 0);
  frames(v, 1);
  assert_int_equal(w->step, 12);
  key(v, SDLK_SPACE, 0);
  assert_false(v->paused);
  frames(v, 30);
  assert_int_equal(w->step, 22);
}

static void test_speed_keys(void **state)
{
  (void)state;
  fbViewer *v = open_viewer(NULL, NULL);
  double normal = fbViewer_TimeScale(v);
  key(v, SDLK_PLUS, 0);
  key(v, SDLK_KP_PLUS, 0);
  assert_true(fbViewer_TimeScale(v) == normal * 4);
  uint64_t before = v->run->sim->world.step;
  frames(v, 30);  // four times real time: 30 frames are 2 simulated seconds, 40 steps
  assert_int_equal(v->run->sim->world.step - before, 40);
  key(v, SDLK_MINUS, 0);
  key(v, SDLK_MINUS, 0);
  key(v, SDLK_MINUS, 0);
  assert_true(fbViewer_TimeScale(v) == normal / 2);
}

static void test_click_selects_and_inspects(void **state)
{
  (void)state;
  fbViewer *v = open_viewer(NULL, NULL);
  fbSim *sim = v->run->sim;
  key(v, SDLK_SPACE, 0);
  frames(v, 1);
  fbVec2 p = on_screen(v, 5);
  click(v, (int)p.x, (int)p.y);
  int picked = fbWorld_FindAgent(&sim->world, v->selected);
  assert_true(picked >= 0);
  fbVec2 q = on_screen(v, picked);
  assert_true(hypot(q.x - p.x, q.y - p.y) < 3);  // the agent under the cursor (or one on top of it)
  assert_int_equal(sim->inspect_id, v->selected);
  key(v, SDLK_PERIOD, 0);
  frames(v, 2);
  fbVec2 out;
  int ran = 0;
  const fbSpecies *species = &sim->world.species[sim->world.agents.species[fbWorld_FindAgent(&sim->world, v->selected)]];
  for (int k = 0; k < species->rule_count; ++k) {
    ran += fbSim_InspectOutput(sim, k, &out);
  }
  assert_int_equal(ran, species->rule_count);  // every rule of its species ran for it
  // A click where there is no agent (in the view's margin, outside the world) clears the selection.
  click(v, v->layout.world.x + 4, v->layout.world.y + 4);
  assert_int_equal(v->selected, 0);
  assert_int_equal(sim->inspect_id, 0);
}

static void test_follow_flock_and_agent(void **state)
{
  (void)state;
  fbViewer *v = open_viewer(NULL, NULL);
  key(v, SDLK_f, 0);
  assert_int_equal(v->follow, FB_FOLLOW_FLOCK);
  frames(v, 10);
  fbVec2 c = fbInput_FlockCentre(v->run->sim);
  assert_float_equal(v->camera.cx, c.x, 1e-9);
  assert_float_equal(v->camera.cy, c.y, 1e-9);
  key(v, SDLK_f, KMOD_LSHIFT);  // nothing selected: stays on the flock
  assert_int_equal(v->follow, FB_FOLLOW_FLOCK);
  key(v, SDLK_SPACE, 0);
  frames(v, 1);
  fbVec2 p = on_screen(v, 7);
  click(v, (int)p.x, (int)p.y);
  assert_true(v->selected != 0);
  key(v, SDLK_f, KMOD_LSHIFT);
  assert_int_equal(v->follow, FB_FOLLOW_AGENT);
  key(v, SDLK_SPACE, 0);
  frames(v, 12);
  int i = fbWorld_FindAgent(&v->run->sim->world, v->selected);
  assert_float_equal(v->camera.cx, v->run->sim->world.agents.px[i], 1e-9);
  assert_float_equal(v->camera.cy, v->run->sim->world.agents.py[i], 1e-9);
  // Dragging the view stops following.
  mouse_button(v, SDL_MOUSEBUTTONDOWN, 600, 400);
  mouse_move(v, 640, 420, 40, 20);
  mouse_button(v, SDL_MOUSEBUTTONUP, 640, 420);
  assert_int_equal(v->follow, FB_FOLLOW_NONE);
}

static void test_drag_pans_wheel_zooms_home_fits(void **state)
{
  (void)state;
  fbViewer *v = open_viewer(NULL, NULL);
  frames(v, 1);
  fbCamera start = v->camera;
  mouse_button(v, SDL_MOUSEBUTTONDOWN, 600, 400);
  mouse_move(v, 620, 405, 20, 5);
  mouse_move(v, 650, 420, 30, 15);
  mouse_button(v, SDL_MOUSEBUTTONUP, 650, 420);
  assert_float_equal(v->camera.cx, start.cx - 50 / start.scale, 1e-9);
  assert_float_equal(v->camera.cy, start.cy - 20 / start.scale, 1e-9);
  assert_int_equal(v->selected, 0);  // a drag is not a click
  // The wheel zooms about the cursor: the world point under it stays put.
  fbVec2 before = fbCamera_ToWorld(&v->camera, fbV(700, 300));
  SDL_Event e = {0};
  e.type = SDL_MOUSEWHEEL;
  e.wheel.y = 2;
  e.wheel.preciseY = 2;
  e.wheel.mouseX = 700;
  e.wheel.mouseY = 300;
  fbViewer_HandleEvent(v, &e);
  fbVec2 after = fbCamera_ToWorld(&v->camera, fbV(700, 300));
  assert_true(v->camera.scale > start.scale * 1.3);
  assert_float_equal(before.x, after.x, 1e-9);
  assert_float_equal(before.y, after.y, 1e-9);
  key(v, SDLK_HOME, 0);
  assert_float_equal(v->camera.scale, start.scale, 1e-12);
  assert_float_equal(v->camera.cx, 100, 1e-12);
  assert_float_equal(v->camera.cy, 75, 1e-12);
}

static const fbPanelRow *find_slot(const fbViewer *v, int species, int rule, int param)
{
  for (int k = 0; k < v->panel.row_count; ++k) {
    const fbPanelRow *s = &v->panel.rows[k];
    if (s->species == species && s->rule == rule && s->param == param && s->rect.w > 0) {
      return s;
    }
  }
  fail_msg("no slider for species %d rule %d param %d", species, rule, param);
  return NULL;
}

static void drag_slider(fbViewer *v, const fbPanelRow *slot, double from, double to)
{
  SDL_Rect r = slot->rect;
  int y = r.y + r.h / 2, x0 = r.x + (int)(from * (r.w - 1)), x1 = r.x + (int)(to * (r.w - 1));
  mouse_button(v, SDL_MOUSEBUTTONDOWN, x0, y);
  frames(v, 1);
  mouse_move(v, (x0 + x1) / 2, y, (x1 - x0) / 2, 0);
  frames(v, 1);
  mouse_move(v, x1, y, x1 - (x0 + x1) / 2, 0);
  frames(v, 1);
  mouse_button(v, SDL_MOUSEBUTTONUP, x1, y);
  frames(v, 1);
}

static void test_panel_sliders_change_weights_and_params(void **state)
{
  (void)state;
  fbViewer *v = open_viewer("--threads", "2");
  fbSim *sim = v->run->sim;
  assert_int_equal(sim->threads, 2);
  key(v, SDLK_TAB, 0);
  frames(v, 1);
  assert_true(v->docks.open[fbTest_Dock("params")]);
  fbCamera before = v->camera;
  // Cohesion (rule 2 of the sheep): weight 1 on a 0..2 slider, divisor 100 on 0..200.
  drag_slider(v, find_slot(v, 0, 2, -1), 0.1, 0.75);
  assert_float_equal(sim->world.species[0].rules[2].weight, 1.5, 0.01);
  drag_slider(v, find_slot(v, 0, 2, 0), 0.5, 0.25);
  for (int t = 0; t < sim->threads; ++t) {  // every worker's Lua state got the new value
    char names[4][FB_NAME_LEN];
    double values[4];
    assert_int_equal(fbRuleSet_ListParams(&sim->rules, t, 0, 2, names, values, 4), 2);
    assert_string_equal(names[0], "divisor");
    assert_float_equal(values[0], 50, 0.5);
  }
  assert_float_equal(v->camera.cx, before.cx, 0);  // the panel took the drag, not the camera
  assert_float_equal(v->camera.cy, before.cy, 0);
  assert_int_equal(v->selected, 0);
  key(v, SDLK_TAB, 0);
  assert_false(v->docks.open[fbTest_Dock("params")]);
}

static void test_printed_parameters_are_lua(void **state)
{
  (void)state;
  fbViewer *v = open_viewer(NULL, NULL);
  v->run->sim->world.species[1].rules[0].weight = 0.25;
  char *text = fbTest_PrintedLua(v->run->sim);
  assert_non_null(strstr(text, "{ \"cohesion\", weight = 1, params = { divisor = 100, step = 0.05 } },"));
  assert_non_null(strstr(text, "{ \"view_leader\", name = \"leader\", weight = 1, params = { every = 7 } },"));
  assert_non_null(strstr(text, "{ \"cohesion\", weight = 0.25, params = { divisor = 100, step = 0.05 } },"));
  fbTest_AssertLuaParses(text);
  free(text);
}

static void test_keys_reach_the_scenario_and_arrows_steer(void **state)
{
  (void)state;
  fbViewer *v = open_viewer(NULL, NULL);
  fbWorld *w = &v->run->sim->world;
  assert_true(v->has_player);
  key(v, SDLK_k, 0);
  assert_true(fbWorld_FindGoal(w, "key_K") >= 0);
  key(v, SDLK_SPACE, 0);  // the viewer's own keys do not reach on_key
  assert_true(fbWorld_FindGoal(w, "key_Space") < 0);
  SDL_Event e = {0};
  e.type = SDL_KEYDOWN;
  e.key.keysym.sym = SDLK_RIGHT;
  fbViewer_HandleEvent(v, &e);
  e.key.keysym.sym = SDLK_UP;
  fbViewer_HandleEvent(v, &e);
  frames(v, 1);
  assert_float_equal(w->input.x, 1, 0);
  assert_float_equal(w->input.y, -1, 0);  // y down: up is negative
  assert_true(fbWorld_FindGoal(w, "key_Right") < 0);  // with a player the arrows steer
  e.type = SDL_KEYUP;
  fbViewer_HandleEvent(v, &e);
  e.key.keysym.sym = SDLK_RIGHT;
  fbViewer_HandleEvent(v, &e);
  frames(v, 1);
  assert_float_equal(w->input.x, 0, 0);
  assert_float_equal(w->input.y, 0, 0);
}

static void test_restart_keeps_seed_reseed_changes_it(void **state)
{
  (void)state;
  fbViewer *v = open_viewer(NULL, NULL);
  frames(v, 30);
  uint64_t hash_at_10 = fbSim_Hash(v->run->sim);
  v->camera.cx = 42;
  key(v, SDLK_r, 0);
  assert_true(v->loaded);
  assert_int_equal(v->run->sim->world.step, 0);
  assert_int_equal(v->run->sim->world.seed, 3);
  assert_float_equal(v->camera.cx, 42, 0);  // the camera stays
  frames(v, 30);
  assert_int_equal(fbSim_Hash(v->run->sim), hash_at_10);  // the same run again
  key(v, SDLK_n, 0);
  assert_int_equal(v->run->sim->world.seed, 4);
  frames(v, 30);
  assert_true(fbSim_Hash(v->run->sim) != hash_at_10);
}

static void test_quit_and_frame_limit(void **state)
{
  (void)state;
  fbViewer *v = open_viewer(NULL, NULL);
  key(v, SDLK_ESCAPE, 0);
  assert_true(v->quit);
  assert_int_equal(fbViewer_Destroy(v), 0);
  v = open_viewer(NULL, NULL);
  SDL_Event e = {.type = SDL_QUIT};
  fbViewer_HandleEvent(v, &e);
  assert_true(v->quit);
  assert_int_equal(fbViewer_Destroy(v), 0);
  char *argv[] = {"flockbox", "--frames", "5", SCENARIO, NULL};
  fbCli cli;
  fbWindowOptions window;
  char err[1024];
  assert_int_equal(fbWindowOptions_Parse(&cli, &window, 4, argv, err, sizeof err), 0);
  assert_int_equal(fbViewer_Create(&viewer, &cli, &window, err, sizeof err), 0);
  int n = 0;
  while (!viewer.quit) {
    fbViewer_Frame(&viewer);
    n++;
  }
  assert_int_equal(n, 5);
}

static void test_trails_and_steps_limit(void **state)
{
  (void)state;
  fbViewer *v = open_viewer("--steps", "12");
  key(v, SDLK_t, 0);
  assert_true(v->trails);
  frames(v, 90);
  assert_int_equal(v->run->sim->world.step, 12);  // --steps stops the window's run too
  key(v, SDLK_PERIOD, 0);
  frames(v, 1);
  assert_int_equal(v->run->sim->world.step, 12);
  // One snapshot every fbTrails_Interval steps (2 for the default 4 s at dt 0.05): steps 1, 3, .. 11.
  int every = fbTrails_Interval(v->render.trails.seconds, v->run->sim->world.dt);
  assert_int_equal(v->render.trails.filled, (12 + every - 1) / every);
}

static void test_screenshot_key_saves_the_window(void **state)
{
  (void)state;
  fbViewer *v = open_viewer(NULL, NULL);
  char cwd[1024], dir[] = "/tmp/flockbox_shot_XXXXXX";
  assert_non_null(getcwd(cwd, sizeof cwd));
  assert_non_null(mkdtemp(dir));
  assert_int_equal(chdir(dir), 0);
  key(v, SDLK_p, 0);
  frames(v, 1);
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "test \"$(ls %s/flockbox-*.png | wc -l)\" = 1", dir);
  int found = system(cmd);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  assert_int_equal(chdir(cwd), 0);
  assert_int_equal(found, 0);
  assert_int_equal(system(cmd), 0);
}

// A restart whose scenario no longer loads keeps the window up with the message; fixing the file
// and pressing R again brings the scenario back.
static void test_failed_restart_shows_the_error(void **state)
{
  (void)state;
  char path[256], copy[512];
  snprintf(path, sizeof path, "tests/data/view_restart_%d.lua", (int)getpid());
  snprintf(copy, sizeof copy, "cp " SCENARIO " %s", path);
  assert_int_equal(system(copy), 0);
  char *argv[] = {"flockbox", "--frames", "1000000", path, NULL};
  fbCli cli;
  fbWindowOptions window;
  char err[4096];
  assert_int_equal(fbWindowOptions_Parse(&cli, &window, 4, argv, err, sizeof err), 0);
  assert_int_equal(fbViewer_Create(&viewer, &cli, &window, err, sizeof err), 0);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("return { world = { width = 'wide' } }\n", f);
  fclose(f);
  key(&viewer, SDLK_r, 0);
  assert_false(viewer.loaded);
  assert_non_null(strstr(viewer.load_error, path));
  frames(&viewer, 3);  // the window goes on, showing the message
  key(&viewer, SDLK_SPACE, 0);
  click(&viewer, 600, 400);
  assert_int_equal(system(copy), 0);
  key(&viewer, SDLK_r, 0);
  assert_true(viewer.loaded);
  frames(&viewer, 3);
  unlink(path);
}

static void test_missing_scenario_is_refused(void **state)
{
  (void)state;
  char *argv[] = {"flockbox", "tests/data/no_such_scenario.lua", NULL};
  fbCli cli;
  fbWindowOptions window;
  char err[1024];
  assert_int_equal(fbWindowOptions_Parse(&cli, &window, 2, argv, err, sizeof err), 0);
  assert_int_equal(fbViewer_Create(&viewer, &cli, &window, err, sizeof err), 2);
  assert_non_null(strstr(err, "no_such_scenario.lua"));
  assert_null(viewer.run);
}

int main(void)
{
  // No display needed: SDL's dummy video driver gives a window with a software renderer.
  setenv("SDL_VIDEODRIVER", "dummy", 1);
  unsetenv("DISPLAY");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_pause_and_single_step, teardown),
      cmocka_unit_test_teardown(test_speed_keys, teardown),
      cmocka_unit_test_teardown(test_click_selects_and_inspects, teardown),
      cmocka_unit_test_teardown(test_follow_flock_and_agent, teardown),
      cmocka_unit_test_teardown(test_drag_pans_wheel_zooms_home_fits, teardown),
      cmocka_unit_test_teardown(test_panel_sliders_change_weights_and_params, teardown),
      cmocka_unit_test_teardown(test_printed_parameters_are_lua, teardown),
      cmocka_unit_test_teardown(test_keys_reach_the_scenario_and_arrows_steer, teardown),
      cmocka_unit_test_teardown(test_restart_keeps_seed_reseed_changes_it, teardown),
      cmocka_unit_test_teardown(test_quit_and_frame_limit, teardown),
      cmocka_unit_test_teardown(test_trails_and_steps_limit, teardown),
      cmocka_unit_test_teardown(test_screenshot_key_saves_the_window, teardown),
      cmocka_unit_test_teardown(test_failed_restart_shows_the_error, teardown),
      cmocka_unit_test_teardown(test_missing_scenario_is_refused, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
