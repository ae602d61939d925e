// test_panel.c — the parameter panel in the window: ranges, typing, reset, refused values, species fields, switches and texts, restarts, scrolling, Lua (SDL's dummy driver).
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <string.h>
#include <unistd.h>

#include "sim_internal.h"  // white-box: reads and sets the sim's members
#include "live.h"
#include "schema.h"
#include "view_util.h"

#define SCENARIO "tests/data/panel_test.lua"
#define FIELD_W_AT_LEAST 84  // panel.c's FIELD_W: a number's field

static fbViewer viewer;

// A viewer on the panel's scenario with the panel open; --frames makes each frame 1/60 s.
static fbViewer *open_panel(void)
{
  fbTest_OpenViewer(&viewer, "5", SCENARIO, NULL);
  viewer.docks.open[fbTest_Dock("params")] = true;
  fbViewer_Frame(&viewer);
  fbViewer_Frame(&viewer);
  return &viewer;
}

// A species with ORCA on shows its four fields and prints them as a table; off, neither.
static void test_orca_fields_follow_the_switch(void **state)
{
  (void)state;
  fbTest_OpenViewer(&viewer, "5", SCENARIO, "--set", "boid.orca=true", NULL);
  viewer.docks.open[fbTest_Dock("params")] = true;
  fbViewer_Frame(&viewer);
  for (int k = 0; k < fbLiveFieldCount; ++k) {
    if (fbLiveFields[k].when != NULL) {
      char key[128];
      snprintf(key, sizeof key, "boid.%s", fbLiveFields[k].field);
      assert_non_null(fbPanel_Find(&viewer.panel, key));
    }
  }
  char *lua = fbTest_PrintedLua(viewer.run->sim);
  assert_non_null(strstr(lua, "orca = { time_horizon = "));
  free(lua);
}

static int teardown(void **state)
{
  (void)state;
  if (viewer.run != NULL) {
    fbViewer_Destroy(&viewer);
  }
  return 0;
}

static void frames(fbViewer *v, int n) { fbTest_Frames(v, n); }

static void send(fbViewer *v, SDL_Event e) { fbViewer_HandleEvent(v, &e); }

static void key(fbViewer *v, SDL_Keycode sym)
{
  SDL_Event e = {.type = SDL_KEYDOWN};
  e.key.keysym.sym = sym;
  send(v, e);
  e.type = SDL_KEYUP;
  send(v, e);
}

static void text(fbViewer *v, const char *s)
{
  SDL_Event e = {.type = SDL_TEXTINPUT};
  snprintf(e.text.text, sizeof e.text.text, "%s", s);
  send(v, e);
}

static void button(fbViewer *v, Uint32 type, int x, int y)
{
  SDL_Event e = {.type = type};
  e.button.button = SDL_BUTTON_LEFT;
  e.button.x = x;
  e.button.y = y;
  send(v, e);
}

static void move(fbViewer *v, int x, int y)
{
  SDL_Event e = {.type = SDL_MOUSEMOTION};
  e.motion.x = x;
  e.motion.y = y;
  e.motion.state = SDL_BUTTON_LMASK;
  send(v, e);
}

// A click in the middle of r, and a frame for the panel to see it.
static void click(fbViewer *v, SDL_Rect r)
{
  assert_true(r.w > 0);
  button(v, SDL_MOUSEBUTTONDOWN, r.x + r.w / 2, r.y + r.h / 2);
  button(v, SDL_MOUSEBUTTONUP, r.x + r.w / 2, r.y + r.h / 2);
  frames(v, 1);
}

static const fbPanelRow *row(const fbViewer *v, const char *key)
{
  const fbPanelRow *r = fbPanel_Find(&v->panel, key);
  if (r == NULL) {
    fail_msg("no panel row %s", key);
  }
  return r;
}

// Scrolls the panel with the wheel until the row is on screen (the window shows about 30 rows).
static const fbPanelRow *reveal(fbViewer *v, const char *key)
{
  const fbPanelRow *r = row(v, key);
  SDL_Rect dock = v->layout.dock[fbTest_Dock("params")];
  for (int k = 0; k < 100 && (r->rect.w == 0 || r->rect.y + r->rect.h > dock.y + dock.h - 8); ++k) {
    SDL_Event e = {.type = SDL_MOUSEWHEEL};
    e.wheel.y = v->panel.scroll == 0 || k < 50 ? -1 : 1;
    e.wheel.mouseX = dock.x + 100;
    e.wheel.mouseY = dock.y + 100;
    send(v, e);
    frames(v, 1);
  }
  return r;
}

// Types into the row's field: a click on it, the text, then Enter.
static void type(fbViewer *v, const char *key, const char *value)
{
  click(v, reveal(v, key)->field_rect);
  text(v, value);
  SDL_Event e = {.type = SDL_KEYDOWN};
  e.key.keysym.sym = SDLK_RETURN;
  send(v, e);
  frames(v, 1);
}

// Drags the row's slider to fraction t of its width.
static void drag(fbViewer *v, const char *key, double t)
{
  SDL_Rect r = reveal(v, key)->rect;
  int y = r.y + r.h / 2, x = r.x + (int)(t * (r.w - 1));
  button(v, SDL_MOUSEBUTTONDOWN, r.x + 1, y);
  frames(v, 1);
  move(v, x, y);
  frames(v, 1);
  button(v, SDL_MOUSEBUTTONUP, x, y);
  frames(v, 1);
}

static double param(fbViewer *v, int s, const char *rule, const char *name)
{
  fbSim *sim = v->run->sim;
  int k = fbSim_FindRule(sim, s, rule);
  char names[8][FB_NAME_LEN];
  double values[8];
  int n = fbSim_ListParams(sim, s, k, names, values, 8);
  for (int q = 0; q < n; ++q) {
    if (strcmp(names[q], name) == 0) {
      return values[q];
    }
  }
  fail_msg("no parameter %s", name);
  return NAN;
}

// A rule's parameter of any kind as the sim runs it.
static fbParamDef value(fbViewer *v, int s, const char *rule, const char *name)
{
  fbSim *sim = v->run->sim;
  fbParamDef values[64];
  int n = fbSim_ParamValues(sim, s, fbSim_FindRule(sim, s, rule), values, 64);
  for (int q = 0; q < n; ++q) {
    if (strcmp(values[q].name, name) == 0) {
      return values[q];
    }
  }
  fail_msg("no parameter %s", name);
  return values[0];
}

// How many boids have their `marked` field (the probe's switch) at 1.
static int marked(const fbViewer *v)
{
  const fbWorld *w = &v->run->sim->world;
  int f = fbWorld_FindField(w, "marked"), n = 0;
  assert_true(f >= 0);
  for (int i = 0; i < w->agents.count; ++i) {
    n += w->agents.species[i] == 0 && w->agents.field[f][i] == 1;
  }
  return n;
}

static int sets(const fbViewer *v, const char **out)
{
  return fbPanel_Sets(&v->panel, out, FB_MAX_SETS);
}

static void test_ranges_come_from_declarations_and_landmarks(void **state)
{
  (void)state;
  fbViewer *v = open_panel();
  const fbPanelRow *gain = row(v, "boid.probe.gain");  // declared { 0.5, min = 0, max = 4 }
  assert_float_equal(gain->lo, 0, 0);
  assert_float_equal(gain->hi, 4, 0);
  const fbPanelRow *divisor = row(v, "boid.cohesion.divisor");  // min = 1e-6, no max: 2 x 100
  assert_float_equal(divisor->lo, 1e-6, 0);
  assert_float_equal(divisor->hi, 200, 0);
  assert_float_equal(row(v, "boid.probe.count")->step, 1, 0);  // an integer moves in whole steps
  assert_float_equal(row(v, "hawk.cohesion.weight")->hi, 2, 0);
  assert_float_equal(row(v, "boid.max_speed")->hi, 20, 0);  // 2 x 8, rounded up to 1, 2 or 5 x 10^k
  assert_float_equal(row(v, "boid.cruise_speed")->hi, 8, 0);  // at most max_speed (Gompert Table 1)
  assert_float_equal(row(v, "boid.vision.fov")->hi, 360, 0);
  assert_float_equal(row(v, "boid.vision.separation")->hi, 10, 0);  // within sight
  // The panel sits in its dock, right of the world's view.
  SDL_Rect r = row(v, "boid.max_speed")->rect, dock = v->layout.dock[fbTest_Dock("params")];
  assert_true(r.x >= dock.x && r.x + r.w <= dock.x + dock.w);
  assert_true(r.x >= v->layout.world.x + v->layout.world.w);
  assert_true(row(v, "boid.max_speed")->reset_rect.w == 0);  // nothing changed: no reset button
}

static void test_typing_applies_keeps_integers_and_swallows_keys(void **state)
{
  (void)state;
  fbViewer *v = open_panel();
  frames(v, 10);
  uint64_t step = v->run->sim->world.step;
  assert_true(step > 0);
  click(v, row(v, "boid.probe.count")->field_rect);
  text(v, "1");
  key(v, SDLK_r);  // while typing, R is a letter, not a restart
  key(v, SDLK_SPACE);
  assert_false(v->paused);
  assert_true(v->run->sim->world.step >= step);
  text(v, "2");
  key(v, SDLK_RETURN);
  frames(v, 1);
  assert_float_equal(param(v, 0, "probe", "count"), 12, 0);
  assert_string_equal(row(v, "boid.probe.count")->error, "");  // validate saw an integer
  const char *kept[FB_MAX_SETS];
  assert_int_equal(sets(v, kept), 1);
  assert_string_equal(kept[0], "boid.probe.count=12");
  // Esc leaves the value as it was.
  click(v, row(v, "boid.probe.gain")->field_rect);
  text(v, "3");
  key(v, SDLK_ESCAPE);
  frames(v, 1);
  assert_float_equal(param(v, 0, "probe", "gain"), 0.5, 0);
  // A fraction typed into an integer field is what --set would make of it: a float, which this
  // rule's validate refuses, so it is not applied.
  type(v, "boid.probe.count", "2.5");
  assert_float_equal(param(v, 0, "probe", "count"), 12, 0);
  assert_non_null(strstr(row(v, "boid.probe.count")->error, "whole number"));
}

static void test_reset_restores_the_scenario_value(void **state)
{
  (void)state;
  fbViewer *v = open_panel();
  fbSim *sim = v->run->sim;
  drag(v, "boid.cohesion.weight", 0.75);
  assert_float_equal(sim->world.species[0].rules[2].weight, 1.5, 0.01);
  type(v, "boid.max_speed", "12");
  assert_float_equal(sim->world.species[0].cruise_speed, 0.7 * 12, 1e-12);  // derived, as on a restart
  const char *kept[FB_MAX_SETS];
  assert_int_equal(sets(v, kept), 2);
  click(v, row(v, "boid.cohesion.weight")->reset_rect);
  assert_float_equal(sim->world.species[0].rules[2].weight, 1, 0);
  click(v, row(v, "boid.max_speed")->reset_rect);
  assert_float_equal(sim->world.species[0].limits.max_speed, 8, 0);
  assert_float_equal(sim->world.species[0].cruise_speed, 0.7 * 8, 1e-12);
  assert_float_equal(fbSim_SpeciesDef(sim, 0)->cruise_speed, -1, 0);  // derived again, not written
  assert_int_equal(sets(v, kept), 0);
  frames(v, 1);
  assert_int_equal(row(v, "boid.max_speed")->reset_rect.w, 0);
}

static void test_refused_values_are_not_applied(void **state)
{
  (void)state;
  fbViewer *v = open_panel();
  fbSim *sim = v->run->sim;
  int probe = fbSim_FindRule(sim, 0, "probe");
  drag(v, "boid.probe.limit", 0.0);  // 0: validate says it must be positive
  assert_float_equal(param(v, 0, "probe", "limit"), 1, 0);
  assert_non_null(strstr(row(v, "boid.probe.limit")->error, "must be positive"));
  assert_non_null(strstr(row(v, "boid.probe.limit")->error, "refused 0: "));  // what was refused, beside it
  assert_float_equal(row(v, "boid.probe.limit")->tried, 0, 0);
  frames(v, 20);
  assert_float_equal(row(v, "boid.probe.limit")->shown, 1, 0);  // the row is back on the value that runs
  assert_false(sim->world.species[0].rules[probe].disabled);  // the rule runs on with its last good value
  assert_int_equal(sim->rules.switched_off, 0);
  assert_non_null(strstr(row(v, "boid.probe.limit")->error, "must be positive"));  // still shown
  type(v, "boid.probe.limit", "1.5");
  assert_float_equal(param(v, 0, "probe", "limit"), 1.5, 0);
  assert_string_equal(row(v, "boid.probe.limit")->error, "");
  // A species change a rule refuses: max_speed below the probe's limit.
  type(v, "boid.max_speed", "1");
  assert_float_equal(sim->world.species[0].limits.max_speed, 8, 0);
  assert_non_null(strstr(row(v, "boid.max_speed")->error, "below max_speed = 1"));
  // And one the species' own landmarks refuse.
  type(v, "boid.cruise_speed", "9");
  assert_non_null(strstr(row(v, "boid.cruise_speed")->error, "must not exceed max_speed"));
  assert_float_equal(sim->world.species[0].cruise_speed, 5.6, 1e-12);
  const char *kept[FB_MAX_SETS];
  assert_int_equal(sets(v, kept), 1);  // only the accepted limit
}

static void test_species_fields_change_the_running_flock(void **state)
{
  (void)state;
  fbViewer *v = open_panel();
  fbSim *sim = v->run->sim;
  type(v, "boid.max_speed", "2");
  type(v, "boid.vision.radius", "30");
  type(v, "boid.vision.fov", "180");
  frames(v, 30);
  const fbAgents *a = &sim->world.agents;
  int boids = 0;
  for (int i = 0; i < a->count; ++i) {
    if (a->species[i] == 0) {
      assert_true(hypot(a->vx[i], a->vy[i]) <= 2 + 1e-9);
      boids++;
    }
  }
  assert_int_equal(boids, 40);
  assert_float_equal(sim->vision[0].radius, 30, 0);  // perception took it
  assert_float_equal(sim->vision[0].cos_half_fov, 0, 1e-12);
  // Cells are half the largest radius wide, whole cells to the world's side (grid.h): 30 / 2 = 15
  // gives 6 cells of 16.7 (it was 10, for the hawks' radius 20).
  assert_true(sim->grid.cell >= 15 && sim->grid.cell < 20);
  assert_float_equal(sim->world.species[0].vision.separation_radius, 2, 0);  // derived: 2 body lengths
  click(v, reveal(v, "boid.accumulator")->field_rect);  // the combiner steps to the next kind
  assert_int_equal(sim->world.species[0].accumulator, FB_ACCUM_PRIORITISED);
  const char *kept[FB_MAX_SETS];
  int n = sets(v, kept);
  assert_int_equal(n, 4);
  assert_string_equal(kept[3], "boid.accumulator=prioritised");
}

static void test_changes_survive_restart_and_new_seed(void **state)
{
  (void)state;
  fbViewer *v = open_panel();
  type(v, "boid.max_speed", "5");
  drag(v, "boid.probe.gain", 0.5);
  type(v, "hawk.cohesion.weight", "1.25");
  type(v, "boid.count", "10");  // applies on restart only
  assert_int_equal(v->run->sim->world.agents.count, 43);
  key(v, SDLK_r);
  frames(v, 2);
  fbSim *sim = v->run->sim;
  assert_float_equal(sim->world.species[0].limits.max_speed, 5, 0);
  assert_float_equal(param(v, 0, "probe", "gain"), 2, 0.05);
  assert_float_equal(sim->world.species[1].rules[0].weight, 1.25, 0);
  assert_int_equal(sim->world.agents.count, 13);
  const char *kept[FB_MAX_SETS];
  assert_int_equal(sets(v, kept), 4);
  assert_true(reveal(v, "boid.max_speed")->reset_rect.w > 0);  // still a change after the restart
  uint64_t seed = sim->world.seed;
  key(v, SDLK_n);
  frames(v, 1);
  sim = v->run->sim;  // a restart makes a new sim
  assert_int_equal(sim->world.seed, seed + 1);
  assert_float_equal(sim->world.species[0].limits.max_speed, 5, 0);
  assert_int_equal(sim->world.agents.count, 13);
  // A reset brings the scenario's value back now and on the next restart.
  click(v, reveal(v, "boid.max_speed")->reset_rect);
  assert_float_equal(sim->world.species[0].limits.max_speed, 8, 0);
  key(v, SDLK_r);
  frames(v, 1);
  sim = v->run->sim;
  assert_float_equal(sim->world.species[0].limits.max_speed, 8, 0);
  assert_float_equal(sim->world.species[1].rules[0].weight, 1.25, 0);
  assert_int_equal(sets(v, kept), 3);
}

// The panel drawn by hand into a short area, between the ui's frame calls as the viewer does.
static void draw_short(fbViewer *v, SDL_Rect area)
{
  fbUi_Begin(&v->ui);
  fbPanel_Draw(&v->panel, &v->ui, v->run->sim, area);
  fbUi_End(&v->ui);
}

static void test_wheel_and_scrollbar_scroll_and_headers_fold(void **state)
{
  (void)state;
  fbViewer *v = open_panel();
  v->docks.open[fbTest_Dock("params")] = false;  // drawn here alone, into a short area
  SDL_Rect area = {600, 100, 348, 200};
  draw_short(v, area);
  draw_short(v, area);
  fbParamPanel *p = &v->panel;
  assert_true(p->content_h > 3 * area.h);
  assert_true(p->scrollbar.w > 0);
  assert_int_equal(p->scroll, 0);
  SDL_Event e = {.type = SDL_MOUSEWHEEL};
  e.wheel.y = -2;  // towards the user: the content moves up
  e.wheel.mouseX = area.x + 50;
  e.wheel.mouseY = area.y + 50;
  send(v, e);
  draw_short(v, area);
  assert_int_equal(p->scroll, 2 * 3 * 21);
  // The thumb dragged to the bottom of the track shows the end of the content.
  SDL_Rect track = p->scrollbar;
  button(v, SDL_MOUSEBUTTONDOWN, track.x + 2, track.y + 5);
  draw_short(v, area);
  move(v, track.x + 2, track.y + track.h + 40);
  draw_short(v, area);
  button(v, SDL_MOUSEBUTTONUP, track.x + 2, track.y + track.h + 40);
  draw_short(v, area);
  assert_int_equal(p->scroll, p->content_h - area.h);
  // Back to the top, and the first species folded under its header.
  button(v, SDL_MOUSEBUTTONDOWN, track.x + 2, track.y);
  button(v, SDL_MOUSEBUTTONUP, track.x + 2, track.y);
  draw_short(v, area);
  assert_int_equal(p->scroll, 0);
  int tall = p->content_h;
  int header_y = area.y + 8 + 3 * v->hud.line_h + 3 + v->hud.line_h / 2;  // under the three lines of help
  button(v, SDL_MOUSEBUTTONDOWN, area.x + 40, header_y);
  button(v, SDL_MOUSEBUTTONUP, area.x + 40, header_y);
  draw_short(v, area);
  draw_short(v, area);
  assert_true(p->folded[0]);
  assert_true(p->content_h < tall / 2);
  assert_int_equal(row(v, "boid.max_speed")->rect.w, 0);
}

// A boolean is a check box: a click switches the rule's behaviour at the next step, the change is
// kept for R and N like a number's, and ↺ switches it back.
static void test_a_check_box_switches_a_boolean(void **state)
{
  (void)state;
  fbViewer *v = open_panel();
  frames(v, 2);
  assert_int_equal(marked(v), 0);
  const fbPanelRow *mark = reveal(v, "boid.probe.mark");
  assert_int_equal(mark->kind, FB_PANEL_SWITCH);
  assert_float_equal(mark->shown, 0, 0);
  click(v, mark->field_rect);
  frames(v, 3);
  assert_int_equal(marked(v), 40);  // every boid, from the next step on
  assert_int_equal(value(v, 0, "probe", "mark").kind, FB_VALUE_BOOL);
  assert_float_equal(row(v, "boid.probe.mark")->shown, 1, 0);
  const char *kept[FB_MAX_SETS];
  assert_int_equal(sets(v, kept), 1);
  assert_string_equal(kept[0], "boid.probe.mark=true");
  key(v, SDLK_r);
  frames(v, 3);
  assert_int_equal(marked(v), 40);  // kept by the restart
  key(v, SDLK_n);
  frames(v, 3);
  assert_int_equal(marked(v), 40);
  click(v, reveal(v, "boid.probe.mark")->reset_rect);
  frames(v, 3);
  assert_int_equal(marked(v), 0);
  assert_int_equal(sets(v, kept), 0);
  click(v, reveal(v, "boid.probe.mark")->rect);  // the label switches it too
  assert_true(value(v, 0, "probe", "mark").number == 1);
}

// A string is a text field: what is typed applies at Enter, any text the rule accepts; one its
// validate refuses (no such species) is not applied, the row shows the running value again with
// "refused VALUE: why" under it. Esc cancels; ↺ and R behave as for numbers.
static void test_a_text_field_sets_a_string(void **state)
{
  (void)state;
  fbViewer *v = open_panel();
  const fbPanelRow *target = reveal(v, "boid.probe.target");
  assert_int_equal(target->kind, FB_PANEL_TEXT);
  assert_string_equal(target->text, "hawk");
  assert_true(target->field_rect.w > FIELD_W_AT_LEAST);  // wider than a number's
  type(v, "boid.probe.target", "boid");
  assert_string_equal(value(v, 0, "probe", "target").text, "boid");
  assert_string_equal(row(v, "boid.probe.target")->text, "boid");
  assert_string_equal(row(v, "boid.probe.target")->error, "");
  type(v, "boid.probe.target", "hawkk");
  assert_string_equal(value(v, 0, "probe", "target").text, "boid");
  const char *error = row(v, "boid.probe.target")->error;
  assert_non_null(strstr(error, "refused hawkk: "));
  assert_non_null(strstr(error, "probe.target"));
  assert_non_null(strstr(error, "no species 'hawkk'"));
  frames(v, 5);
  assert_string_equal(row(v, "boid.probe.target")->text, "boid");  // back on the value that runs
  assert_int_equal(v->run->sim->rules.switched_off, 0);
  // Text that reads as a number is still text to a string (the probe refuses it as a species).
  type(v, "boid.probe.target", "3");
  assert_non_null(strstr(row(v, "boid.probe.target")->error, "no species '3'"));
  // Longer than a parameter holds: refused, not cut.
  click(v, reveal(v, "boid.probe.target")->field_rect);
  for (int k = 0; k < 4; ++k) {
    text(v, "bbbbbbbbbbbbbbbbbbbbbbbbb");  // 100 in all: an SDL text event holds 31 bytes
  }
  key(v, SDLK_RETURN);
  frames(v, 1);
  assert_non_null(strstr(row(v, "boid.probe.target")->error, "at most 63 characters"));
  // Esc leaves it as it was.
  click(v, reveal(v, "boid.probe.target")->field_rect);
  text(v, "hawk");
  key(v, SDLK_ESCAPE);
  frames(v, 1);
  assert_string_equal(value(v, 0, "probe", "target").text, "boid");
  // A string with quotes, on a rule without opinions about it, survives R and prints as Lua.
  type(v, "hawk.seek_goal.goal", "say \"hi\" \\ back");
  const char *kept[FB_MAX_SETS];
  assert_int_equal(sets(v, kept), 2);
  assert_string_equal(kept[0], "boid.probe.target=boid");
  key(v, SDLK_r);
  frames(v, 2);
  assert_string_equal(value(v, 0, "probe", "target").text, "boid");
  assert_string_equal(value(v, 1, "seek_goal", "goal").text, "say \"hi\" \\ back");
  click(v, reveal(v, "boid.probe.target")->reset_rect);
  assert_string_equal(value(v, 0, "probe", "target").text, "hawk");
  assert_int_equal(sets(v, kept), 1);
}

static void test_printed_lua_has_species_fields(void **state)
{
  (void)state;
  fbViewer *v = open_panel();
  type(v, "boid.max_speed", "10");
  char *lua = fbTest_PrintedLua(v->run->sim);
  assert_non_null(strstr(lua, "max_speed = 10, min_speed = 0, cruise_speed = 7, max_accel = 20, accumulator = \"weighted\","));
  assert_non_null(strstr(lua, "vision = { radius = 10, fov = 270, separation = 2 },"));
  assert_non_null(strstr(lua, "{ \"panel_probe\", name = \"probe\", weight = 1, params = { count = 3, gain = 0.5, limit = 1, mark = false, target = \"hawk\" } },"));
  fbTest_AssertLuaParses(lua);
  free(lua);
  // Booleans and strings as set, quotes and backslashes escaped: Lua reads back the same text.
  click(v, reveal(v, "boid.probe.mark")->field_rect);
  type(v, "boid.probe.target", "boid");
  const char *goal = "a \"quoted\" \\ 'goal'";
  type(v, "hawk.seek_goal.goal", goal);
  lua = fbTest_PrintedLua(v->run->sim);
  assert_non_null(strstr(lua, "mark = true, target = \"boid\""));
  assert_non_null(strstr(lua, "goal = \"a \\\"quoted\\\" \\\\ 'goal'\""));
  fbTest_AssertLuaParses(lua);
  // Run as a table constructor, the last species' rules (the hawks') hold the goal as typed.
  size_t size = strlen(lua) + 64;
  char *chunk = calloc(1, size);
  snprintf(chunk, size, "return {\n%s}", lua);
  lua_State *L = luaL_newstate();
  assert_int_equal(luaL_dostring(L, chunk), LUA_OK);
  lua_getfield(L, -1, "rules");
  lua_rawgeti(L, -1, 2);
  lua_getfield(L, -1, "params");
  lua_getfield(L, -1, "goal");
  assert_string_equal(lua_tostring(L, -1), goal);
  lua_close(L);
  free(chunk);
  free(lua);
}

// Every field of the live table (live.h), whatever it holds: a labelled one has its row with the
// value the species runs with and is printed as Lua if it applies at once; --set of its value
// applies at once when live and is kept for the restart otherwise.
static void test_every_live_field_is_offered(void **state)
{
  (void)state;
  fbViewer *v = open_panel();
  fbSim *sim = v->run->sim;
  char *lua = fbTest_PrintedLua(sim);
  for (int k = 0; k < fbLiveFieldCount; ++k) {
    const fbLiveField *f = &fbLiveFields[k];
    const fbField *field = fbSchema_Find(&fbSpeciesSchema, f->field);
    assert_non_null(field);
    char key[128], set[192], msg[1024] = "";
    snprintf(key, sizeof key, "boid.%s", f->field);
    const char *dot = strchr(f->field, '.');
    char printed[64];
    snprintf(printed, sizeof printed, "%s = ", dot ? dot + 1 : f->field);
    if (f->label != NULL && !fbLive_Shown(sim, 0, f)) {  // a switch's field, the switch off (orca)
      assert_null(fbPanel_Find(&v->panel, key));
      assert_null(strstr(lua, f->field));  // nor printed: pasted back, it would switch it on
    } else if (f->label != NULL) {
      const fbPanelRow *r = row(v, key);
      assert_int_equal(r->kind, f->live ? FB_PANEL_SPECIES : FB_PANEL_RESTART);
      assert_true(r->hi > r->lo);
      assert_int_equal(r->choice, field->kind == FB_FIELD_CHOICE);
      assert_true(!f->live || strstr(lua, printed) != NULL);
    }
    double now = fbLive_SpeciesField(sim, 0, f->field);
    if (field->kind == FB_FIELD_CHOICE) {
      snprintf(set, sizeof set, "%s=%s", key, fbField_ChoiceName(field, (int)now));
    } else if (field->kind == FB_FIELD_BOOL) {  // a switch (orca)
      snprintf(set, sizeof set, "%s=%s", key, now != 0 ? "true" : "false");
    } else {
      snprintf(set, sizeof set, "%s=%.17g", key, now);
    }
    bool derived = field->derived && now < 0;  // as written: "derived", not a value --set takes
    if (!derived) {
      bool ok = fbLive_Set(sim, set, msg, sizeof msg);
      assert_true(ok == f->live);
      assert_true(ok || strstr(msg, "restart") != NULL);
    }
  }
  free(lua);
}

// Writes a scenario into a new folder: two species sharing one rules list, the probe rule among them.
static void write_shared_scenario(char *dir, char *path, size_t len)
{
  assert_non_null(mkdtemp(dir));
  char cwd[512];
  assert_non_null(getcwd(cwd, sizeof cwd));
  snprintf(path, len, "%s/shared.lua", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f, "local rules = { { \"separation\" }, { \"cohesion\", weight = 0.5 }, { \"panel_probe\", name = \"probe\" } }\n"
             "return {\n"
             "  world = { width = 100, height = 100, dt = 0.05 }, behaviours = { \"%s/tests/behaviours\" },\n"
             "  species = {\n"
             "    { name = \"boid\", count = 40, max_speed = 8, vision = { radius = 10, fov = 270 }, rules = rules },\n"
             "    { name = \"hawk\", count = 3, max_speed = 12, vision = { radius = 20 }, rules = rules },\n"
             "  },\n"
             "}\n",
          cwd);
  assert_int_equal(fclose(f), 0);
}

// Every parameter as Lua and the final state after 20 frames, of a viewer on `scenario` with the
// --set values in `sets` (NULL-ended); the viewer is closed again.
static char *parameters_and_hash(const char *scenario, const char *const *sets, uint64_t *hash)
{
  const char *a[2 * FB_MAX_SETS + 1] = {NULL};
  int n = 0;
  for (int k = 0; sets[k] != NULL && n < 2 * FB_MAX_SETS; ++k) {
    a[n++] = "--set";
    a[n++] = sets[k];
  }
  fbTest_OpenViewer(&viewer, "5", scenario, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10],
                    a[11], a[12], a[13], NULL);
  char *lua = fbTest_PrintedLua(viewer.run->sim);
  fbTest_Frames(&viewer, 20);
  *hash = fbSim_Hash(viewer.run->sim);
  fbViewer_Destroy(&viewer);
  viewer.run = NULL;
  return lua;
}

// Esc with changes in the panel asks first (Esc again goes back to the run); S saves them as an
// overlay beside the scenario and quits. The overlay run is the scenario run with the panel's
// --set values: the same parameters, the same hash, and the species that shares the changed
// rules list keeps its own values.
static void test_esc_asks_then_saves_an_overlay_that_reproduces_the_changes(void **state)
{
  (void)state;
  char dir[] = "/tmp/flockbox_overlay_XXXXXX", scenario[256];
  write_shared_scenario(dir, scenario, sizeof scenario);
  fbViewer *v = fbTest_OpenViewer(&viewer, "5", scenario, NULL);
  v->docks.open[fbTest_Dock("params")] = true;
  frames(v, 2);
  type(v, "boid.max_speed", "7");
  type(v, "boid.vision.fov", "200");
  type(v, "boid.cohesion.weight", "2");
  type(v, "boid.probe.gain", "1.5");
  type(v, "boid.probe.target", "boid");
  type(v, "boid.count", "30");
  click(v, reveal(v, "boid.probe.mark")->field_rect);
  const char *kept[FB_MAX_SETS + 1] = {NULL};
  assert_int_equal(sets(v, kept), 7);
  char copies[7][FB_PANEL_KEY + 64];
  const char *saved[8] = {NULL};
  for (int k = 0; k < 7; ++k) {
    snprintf(copies[k], sizeof copies[k], "%s", kept[k]);
    saved[k] = copies[k];
  }
  key(v, SDLK_ESCAPE);
  assert_true(v->asking_quit);
  assert_false(v->quit);
  key(v, SDLK_ESCAPE);  // back to the run
  assert_false(v->asking_quit);
  assert_false(v->quit);
  key(v, SDLK_ESCAPE);
  key(v, SDLK_s);
  assert_true(v->quit);
  char overlay[300];
  snprintf(overlay, sizeof overlay, "%s/shared_panel.lua", dir);
  assert_int_equal(access(overlay, R_OK), 0);
  fbViewer_Destroy(&viewer);
  viewer.run = NULL;

  uint64_t overlay_hash, set_hash;
  const char *none[1] = {NULL};
  char *from_overlay = parameters_and_hash(overlay, none, &overlay_hash);
  char *from_sets = parameters_and_hash(scenario, saved, &set_hash);
  assert_string_equal(strchr(from_overlay, '\n'), strchr(from_sets, '\n'));  // after the header naming the file
  assert_true(overlay_hash == set_hash);
  assert_non_null(strstr(from_overlay, "{ \"cohesion\", weight = 0.5,"));  // the hawk's, unchanged
  free(from_overlay);
  free(from_sets);
  remove(overlay);
  remove(scenario);
  rmdir(dir);
}

// Saved, the panel has nothing unsaved: Esc quits at once; a change after the save asks again.
static void test_esc_quits_at_once_without_unsaved_changes(void **state)
{
  (void)state;
  char dir[] = "/tmp/flockbox_overlay_XXXXXX", scenario[256], overlay[300];
  write_shared_scenario(dir, scenario, sizeof scenario);
  fbViewer *v = fbTest_OpenViewer(&viewer, "5", scenario, NULL);
  v->docks.open[fbTest_Dock("params")] = true;
  frames(v, 2);
  type(v, "boid.max_speed", "7");
  fbTest_Key(v, SDLK_c, KMOD_LSHIFT);  // Shift+C saves without quitting
  assert_false(v->quit);
  snprintf(overlay, sizeof overlay, "%s/shared_panel.lua", dir);
  assert_int_equal(access(overlay, R_OK), 0);
  type(v, "boid.max_speed", "6");
  key(v, SDLK_ESCAPE);
  assert_true(v->asking_quit);
  key(v, SDLK_q);  // quit without saving
  assert_true(v->quit);
  fbViewer_Destroy(&viewer);
  viewer.run = NULL;
  fbTest_OpenViewer(&viewer, "5", scenario, NULL);
  key(&viewer, SDLK_ESCAPE);  // nothing changed: no question
  assert_true(viewer.quit);
  remove(overlay);
  remove(scenario);
  rmdir(dir);
}

// A species placed by hand (count = 0, agents = { ... }) says how many start: moths_lamp's 40.
static void test_agents_placed_by_hand_are_counted(void **state)
{
  (void)state;
  fbTest_OpenViewer(&viewer, "5", "scripts/moths_lamp.lua", NULL);
  viewer.docks.open[fbTest_Dock("params")] = true;
  frames(&viewer, 2);
  const fbPanelRow *count = row(&viewer, "moth.count");
  assert_string_equal(count->label, "agents (R): 40 placed +");
  assert_float_equal(count->shown, 0, 0);  // the random ones, which --set moth.count adds
  fbViewer_Destroy(&viewer);
  viewer.run = NULL;
  open_panel();
  assert_string_equal(row(&viewer, "boid.count")->label, "agents (on restart: R)");  // none placed
}

int main(void)
{
  setenv("SDL_VIDEODRIVER", "dummy", 1);
  unsetenv("DISPLAY");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_ranges_come_from_declarations_and_landmarks, teardown),
      cmocka_unit_test_teardown(test_typing_applies_keeps_integers_and_swallows_keys, teardown),
      cmocka_unit_test_teardown(test_reset_restores_the_scenario_value, teardown),
      cmocka_unit_test_teardown(test_refused_values_are_not_applied, teardown),
      cmocka_unit_test_teardown(test_species_fields_change_the_running_flock, teardown),
      cmocka_unit_test_teardown(test_changes_survive_restart_and_new_seed, teardown),
      cmocka_unit_test_teardown(test_wheel_and_scrollbar_scroll_and_headers_fold, teardown),
      cmocka_unit_test_teardown(test_a_check_box_switches_a_boolean, teardown),
      cmocka_unit_test_teardown(test_a_text_field_sets_a_string, teardown),
      cmocka_unit_test_teardown(test_printed_lua_has_species_fields, teardown),
      cmocka_unit_test_teardown(test_every_live_field_is_offered, teardown),
      cmocka_unit_test_teardown(test_orca_fields_follow_the_switch, teardown),
      cmocka_unit_test_teardown(test_esc_asks_then_saves_an_overlay_that_reproduces_the_changes, teardown),
      cmocka_unit_test_teardown(test_esc_quits_at_once_without_unsaved_changes, teardown),
      cmocka_unit_test_teardown(test_agents_placed_by_hand_are_counted, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
