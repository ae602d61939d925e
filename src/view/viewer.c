// viewer.c — the window: main loop with fixed simulation steps, events and actions, docks and drawing; loading is viewer_load.c, going back in time viewer_time.c.
#define _POSIX_C_SOURCE 200809L
#include "viewer.h"

#include <string.h>
#include <time.h>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

#include "help.h"
#include "overlay.h"
#include "picture.h"
#include "viewer_load.h"
#include "viewer_time.h"

#define WINDOW_W 1280
#define WINDOW_H 800
#define MAX_STEPS_PER_FRAME 256

static const double TIME_SCALES[] = {1.0 / 16, 1.0 / 8, 1.0 / 4, 1.0 / 2, 1, 2, 4, 8, 16, 32, 64};
#define SPEED_COUNT ((int)(sizeof TIME_SCALES / sizeof TIME_SCALES[0]))
#define SPEED_DEFAULT 4

double fbViewer_TimeScale(const fbViewer *v) { return TIME_SCALES[v->speed]; }

// ---- the run ------------------------------------------------------------------------------------

// Steps this frame: one for '.', else as many as the time scale owes, never past --steps.
static int steps_due(fbViewer *v, double frame_s)
{
  const fbSim *sim = v->run->sim;
  long left = v->cli.steps_given ? v->cli.steps - v->run->steps : MAX_STEPS_PER_FRAME;
  if (left <= 0) {
    v->step_once = false;
    return 0;
  }
  if (v->step_once) {
    v->step_once = false;
    return 1;
  }
  if (v->paused) {
    return 0;
  }
  v->owed += frame_s * fbViewer_TimeScale(v);
  int n = (int)fmin(MAX_STEPS_PER_FRAME, floor(v->owed / fbSim_World(sim)->dt + 1e-9));
  v->owed = fmax(0.0, v->owed - n * fbSim_World(sim)->dt);
  if (n >= MAX_STEPS_PER_FRAME) {
    v->owed = 0;  // cannot keep up: slow down rather than fall ever further behind
  }
  return (int)fmin(n, left);
}

static void cost_add(fbStepCost *sum, const fbStepCost *c, double weight)
{
  sum->grid_ms += c->grid_ms * weight;
  sum->rules_ms += c->rules_ms * weight;
  sum->integrate_ms += c->integrate_ms * weight;
  sum->bodies_ms += c->bodies_ms * weight;
  sum->hooks_ms += c->hooks_ms * weight;
  sum->total_ms += c->total_ms * weight;
}

// A sample for the plots when one is due, at most once a frame. Measuring is one nearest-neighbour
// search per agent (about 0.15 s for 50 000 agents), so after a costly sample the next waits nine
// times as long in real time: the plots never take more than a tenth of the window's time.
static void sample_plots(fbViewer *v)
{
  uint64_t start = SDL_GetPerformanceCounter();
  double now = (double)start / SDL_GetPerformanceFrequency();
  if (now < v->next_sample_s) {
    return;
  }
  int before = v->plots.count;
  double last = v->plots.last_time;
  fbPlots_Sample(&v->plots, v->run->sim, v->run->telemetry.metrics);
  if (v->plots.count != before || v->plots.last_time != last) {  // a sample was taken
    double cost = (double)(SDL_GetPerformanceCounter() - start) / SDL_GetPerformanceFrequency();
    v->next_sample_s = now + 9 * cost;
  }
}

/*
 * A rule failed in the step just made (stop on error, error_stop.h): paused there with its agent
 * selected, the console open and holding its frame, showing where and why, and its locals.
 */
static void stop_on_error(fbViewer *v)
{
  fbSim *sim = v->run->sim;
  const fbRuleFrame *f = v->console.console.frame;
  v->paused = true;
  v->selected = f->agent;
  fbSim_Inspect(sim, v->selected);
  v->docks.open[fbDock_Find("console")] = true;
  char text[620];
  snprintf(text, sizeof text, "stopped at step %llu: rule '%.64s' of species '%.64s' failed for agent %u at %.300s",
           (unsigned long long)fbSim_World(sim)->step, fbSim_RuleName(sim, f->species, f->rule),
           fbSim_World(sim)->species[f->species].name, (unsigned)f->agent, f->where);
  fbViewer_Notify(v, text);
  fbConsoleDock_Say(&v->console, text);
  fbConsoleDock_Say(&v->console, f->traceback);
  fbConsoleDock_Say(&v->console, "locals (lines see them; sel is the agent):");
  fbConsoleDock_Say(&v->console, f->locals[0] ? f->locals : "(none)");
  fbConsoleDock_Say(&v->console, v->error_stop.have_before
                                      ? "save the fixed rule: the step is made again from the state before it"
                                      : "the state before this step was not kept: a fixed rule goes on from here");
}

void fbViewer_Advance(fbViewer *v, int steps)
{
  fbSim *sim = v->run->sim;
  for (int k = 0; k < steps; ++k) {
    fbErrorStop_BeforeStep(&v->error_stop, sim);
    fbTraceDock_BeforeStep(&v->trace, sim, v->docks.open[fbDock_Find("trace")], v->selected);
    bool ok = fbRun_Step(v->run);
    fbTraceDock_AfterStep(&v->trace, sim);
    if (!ok && !v->scenario_failed) {
      fprintf(stderr, "flockbox: %s\n", fbSim_Error(sim));  // once when it appears; the HUD keeps it
    }
    v->scenario_failed = !ok;
    v->rate_steps++;
    double when = 0;
    const char *outcome = fbSim_Outcome(sim, &when);
    if (outcome == NULL) {
      v->outcome_seen = false;  // a restarted scenario has no outcome yet
    } else if (!v->outcome_seen) {
      // A headless run ends here; the window pauses, so the moment can be looked at (space goes on).
      printf("flockbox: outcome %s at %.6g s (paused)\n", outcome, when);
      v->outcome_seen = true;
      v->paused = true;
      break;
    }
    cost_add(&v->cost_sum, fbSim_Cost(sim), 1.0);
    fbViewer_NoteSnapshot(v, sim);
    if (v->trails) {
      fbTrails_Record(&v->render.trails, sim);
    }
    if (fbErrorStop_AfterStep(&v->error_stop, sim, &v->console.console)) {
      stop_on_error(v);
      break;
    }
  }
  if (steps > 0) {
    sample_plots(v);
  }
}

// The arrow keys drive the player at once, whatever a scenario's autopilot says (fb.set_input is
// ignored while the user steers); the autopilot resumes after the keys have been let go for a
// few seconds. Let go, the input is 0: the player keeps its heading.
#define AUTOPILOT_WAIT_S 3.0

static void steer_player(fbViewer *v, double frame_s)
{
  const fbWorld *w = fbSim_World(v->run->sim);
  fbVec2 s = fbInput_Steering(&v->input);
  bool held = s.x != 0 || s.y != 0;
  if (!v->has_player) {
    return;
  }
  v->idle_s = held ? 0 : v->idle_s + frame_s;
  if (held || (w->input_held && v->idle_s < AUTOPILOT_WAIT_S)) {
    fbSim_SetPlayerInput(v->run->sim, s, true);
  } else if (w->input_held) {
    fbSim_SetPlayerInput(v->run->sim, w->input, false);
    fbViewer_Notify(v, "arrow keys idle: the scenario steers the player again");
  }
}

static int selected_index(fbViewer *v)
{
  fbSim *sim = fbViewer_Sim(v);
  int i = (sim && v->selected) ? fbWorld_FindAgent(fbSim_World(sim), v->selected) : -1;
  if (sim && v->selected && i < 0) {  // removed (caught, despawned)
    v->selected = 0;
    fbSim_Inspect(sim, 0);
    v->follow = v->follow == FB_FOLLOW_AGENT ? FB_FOLLOW_NONE : v->follow;
  }
  return i;
}

static void follow(fbViewer *v)
{
  if (v->follow == FB_FOLLOW_FLOCK) {
    fbVec2 c = fbInput_FlockCentre(v->run->sim);
    v->camera.cx = c.x;
    v->camera.cy = c.y;
  } else if (v->follow == FB_FOLLOW_AGENT) {
    int i = selected_index(v);
    if (i >= 0) {
      v->camera.cx = fbSim_World(v->run->sim)->agents.px[i];
      v->camera.cy = fbSim_World(v->run->sim)->agents.py[i];
    }
  }
}

// ---- events -------------------------------------------------------------------------------------

static void select_at(fbViewer *v, int x, int y)
{
  fbSim *sim = fbViewer_Sim(v);
  if (sim == NULL) {
    return;
  }
  int i = fbInput_Pick(sim, &v->camera, x, y);
  v->selected = i >= 0 ? fbSim_World(sim)->agents.id[i] : 0;
  fbSim_Inspect(sim, v->selected);
  if (v->selected == 0 && v->follow == FB_FOLLOW_AGENT) {
    v->follow = FB_FOLLOW_NONE;
  }
}

static void scenario_key(fbViewer *v, const char *key)
{
  fbSim *sim = fbViewer_Sim(v);
  if (sim != NULL && key != NULL && key[0] != '\0' && !fbSim_Key(sim, key)) {
    fprintf(stderr, "flockbox: %s\n", fbSim_Error(sim));
    v->scenario_failed = true;
  }
}

static bool inside(SDL_Rect r, int x, int y) { return x >= r.x && y >= r.y && x < r.x + r.w && y < r.y + r.h; }

// A press on a goal or a path point grabs it; while held it follows the mouse. True if it took the event.
static bool grab_event(fbViewer *v, const SDL_Event *e)
{
  fbSim *sim = fbViewer_Sim(v);
  if (sim == NULL) {
    return false;
  }
  if (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_LEFT &&
      inside(v->layout.world, e->button.x, e->button.y)) {
    v->grab = fbGrab_At(sim, &v->camera, e->button.x, e->button.y);
    return v->grab.kind != FB_GRAB_NONE;
  }
  if (v->grab.kind == FB_GRAB_NONE) {
    return false;
  }
  if (e->type == SDL_MOUSEMOTION) {
    fbGrab_MoveTo(sim, &v->camera, v->grab, e->motion.x, e->motion.y);
    return true;
  }
  if (e->type == SDL_MOUSEBUTTONUP && e->button.button == SDL_BUTTON_LEFT) {
    fbGrab_MoveTo(sim, &v->camera, v->grab, e->button.x, e->button.y);
    v->grab.kind = FB_GRAB_NONE;
    return true;
  }
  return false;
}

// Mouse presses and the wheel outside the world's view (over a dock or the key bar) do not move
// the camera or select agents.
static bool outside_world(const fbViewer *v, const SDL_Event *e)
{
  switch (e->type) {
  case SDL_MOUSEBUTTONDOWN: return !inside(v->layout.world, e->button.x, e->button.y);
  case SDL_MOUSEWHEEL: return !inside(v->layout.world, e->wheel.mouseX, e->wheel.mouseY);
  default: return false;
  }
}

// Shift+C, and S in the quit prompt: the panel's changes as an overlay beside the scenario.
static bool save_params(fbViewer *v)
{
  char path[1024], err[1200], text[600];
  fbSim *sim = fbViewer_Sim(v);
  bool ok = sim != NULL && fbOverlay_Path(v->cli.scenario, path, sizeof path, err, sizeof err) &&
            fbOverlay_Write(&v->panel, v->cli.scenario, fbSim_World(sim)->step, path, err, sizeof err);
  if (sim == NULL) {
    snprintf(err, sizeof err, "no scenario running: nothing to save");
  }
  if (ok) {
    fbPanel_MarkSaved(&v->panel);
    printf("flockbox: saved the panel's changes as %s (run it as a scenario)\n", path);
    snprintf(text, sizeof text, "saved the panel's changes as %.500s", path);
  } else {
    fprintf(stderr, "flockbox: %s\n", err);
    snprintf(text, sizeof text, "%.590s", err);
  }
  fbViewer_Notify(v, text);
  return ok;
}

// The quit prompt takes every key: S saves and quits (stays if the save failed), Q quits without
// saving, Esc or N goes back to the run.
static void quit_prompt_key(fbViewer *v, SDL_Keycode sym)
{
  if (sym == SDLK_s) {
    v->quit = save_params(v);
    v->asking_quit = false;
  } else if (sym == SDLK_q) {
    v->quit = true;
  } else if (sym == SDLK_ESCAPE || sym == SDLK_n) {
    v->asking_quit = false;
  }
}

// Overlays (help, the scenario list, the quit prompt) take every event while they are open.
static bool overlay_event(fbViewer *v, const SDL_Event *e)
{
  if (v->asking_quit) {
    if (e->type == SDL_KEYDOWN && !e->key.repeat) {
      quit_prompt_key(v, e->key.keysym.sym);
    }
    return e->type == SDL_KEYDOWN || e->type == SDL_MOUSEBUTTONDOWN || e->type == SDL_MOUSEWHEEL;
  }
  if (v->list.open) {
    char chosen[768];
    bool used = fbScenarioList_Event(&v->list, e, chosen, sizeof chosen);
    if (chosen[0] != '\0') {
      fbViewer_Open(v, chosen);
    }
    return used;  // closing the window still works while the list is open
  }
  if (v->help && (e->type == SDL_KEYDOWN || e->type == SDL_MOUSEBUTTONDOWN)) {
    v->help = false;  // any key or click closes the help
    return true;
  }
  return false;
}

static void toggle_trails(fbViewer *v, double factor)
{
  if (factor == 1) {
    v->trails = !v->trails;
    fbTrails_Clear(&v->render.trails);
    return;
  }
  v->trails = true;
  fbTrails_SetSeconds(&v->render.trails, v->render.trails.seconds * factor);
  char text[96];
  snprintf(text, sizeof text, "trails: the last %.3g s", v->render.trails.seconds);
  fbViewer_Notify(v, text);
}

// `: opens the console with the keys going to it; a console already open takes the keys. While
// it has them, ` and Esc are its own (console_dock.c).
static void console_key(fbViewer *v, int dock)
{
  if (v->docks.open[dock] && v->console.focus) {
    v->docks.open[dock] = false;
    v->console.focus = false;
    return;
  }
  v->docks.open[dock] = true;
  fbConsoleDock_Focus(&v->console);
}

static void toggle_error_stop(fbViewer *v)
{
  v->error_stop.on = !v->error_stop.on;
  if (!v->error_stop.on) {
    fbErrorStop_Leave(&v->error_stop, &v->console.console);
  }
  fbViewer_Notify(v, v->error_stop.on ? "stop on error on: a failing rule stops the run at its step"
                                      : "stop on error off: a failing rule is switched off and the run goes on");
}

static void action(fbViewer *v, fbAction a)
{
  switch (a.kind) {
  case FB_ACTION_QUIT:  // a second close of the window while the prompt shows quits
    v->quit = v->asking_quit || !(v->loaded && fbPanel_Unsaved(&v->panel));
    v->asking_quit = !v->quit;
    break;
  case FB_ACTION_PAUSE:
    v->paused = !v->paused;
    v->seeking = false;
    fbErrorStop_Leave(&v->error_stop, &v->console.console);  // going on past a failure
    break;
  case FB_ACTION_STEP:
    fbErrorStop_Leave(&v->error_stop, &v->console.console);
    v->paused = true;
    v->seeking = false;
    v->step_once = true;
    fbTraceDock_Ask(&v->trace);  // the trace dock, when open, shows the step made
    break;
  case FB_ACTION_FASTER: v->speed = v->speed + 1 < SPEED_COUNT ? v->speed + 1 : v->speed; break;
  case FB_ACTION_SLOWER: v->speed = v->speed > 0 ? v->speed - 1 : 0; break;
  case FB_ACTION_RESTART: fbViewer_Restart(v, false); break;
  case FB_ACTION_RESEED: fbViewer_Restart(v, true); break;
  case FB_ACTION_FOLLOW_FLOCK: v->follow = v->follow == FB_FOLLOW_FLOCK ? FB_FOLLOW_NONE : FB_FOLLOW_FLOCK; break;
  case FB_ACTION_FOLLOW_AGENT:
    if (v->selected == 0) {
      fbViewer_Notify(v, "click an agent first, then Shift+F follows it");
    } else {
      v->follow = v->follow == FB_FOLLOW_AGENT ? FB_FOLLOW_NONE : FB_FOLLOW_AGENT;
    }
    break;
  case FB_ACTION_FIT: fbViewer_Fit(v); break;
  case FB_ACTION_DOCK:
    if (a.dock == fbDock_Find("console")) {
      console_key(v, a.dock);
    } else {
      v->docks.open[a.dock] = !v->docks.open[a.dock];
    }
    if (a.dock == fbDock_Find("trace") && v->docks.open[a.dock]) {
      fbTraceDock_Ask(&v->trace);  // opened: the next step is traced
    }
    break;
  case FB_ACTION_ERROR_STOP: toggle_error_stop(v); break;
  case FB_ACTION_HELP: v->help = !v->help; break;
  case FB_ACTION_OPEN: fbScenarioList_Open(&v->list, v->cli.scenario); break;
  case FB_ACTION_PRINT_PARAMS:
    if (v->loaded) {
      fbPanel_PrintLua(v->run->sim, stdout);
      fbViewer_Notify(v, "parameters printed to the terminal as Lua");
    }
    break;
  case FB_ACTION_SAVE_PARAMS: save_params(v); break;
  case FB_ACTION_SCREENSHOT: v->screenshot = true; break;
  case FB_ACTION_TRAILS: toggle_trails(v, 1); break;
  case FB_ACTION_TRAILS_SHORTER: toggle_trails(v, 1 / 1.5); break;
  case FB_ACTION_TRAILS_LONGER: toggle_trails(v, 1.5); break;
  case FB_ACTION_FLOW:
    v->render.hide_flow = !v->render.hide_flow;
    fbViewer_Notify(v, v->render.hide_flow ? "flow arrows off" : "flow arrows on");
    break;
  case FB_ACTION_SELECT: select_at(v, a.x, a.y); break;
  case FB_ACTION_CAMERA_MOVED: v->follow = FB_FOLLOW_NONE; break;
  case FB_ACTION_SCENARIO_KEY: scenario_key(v, a.key); break;
  case FB_ACTION_REWIND: fbViewer_RewindStep(v, true); break;
  case FB_ACTION_FORWARD: fbViewer_RewindStep(v, false); break;
  case FB_ACTION_NONE: break;
  }
}

// A click on a key bar button presses its key: down, then up, as the keyboard would.
static bool key_bar_event(fbViewer *v, const SDL_Event *e)
{
  SDL_Keycode sym;
  Uint16 mod;
  SDL_Point at = {e->button.x, e->button.y};
  if (e->type != SDL_MOUSEBUTTONDOWN || e->button.button != SDL_BUTTON_LEFT ||
      !fbHelp_KeyBarClick(v->key_bar_buttons, v->key_bar_button_count, at, &sym, &mod)) {
    return false;
  }
  SDL_Event key = {.type = SDL_KEYDOWN};
  key.key.keysym.sym = sym;
  key.key.keysym.mod = mod;
  fbViewer_HandleEvent(v, &key);
  key.type = SDL_KEYUP;
  fbViewer_HandleEvent(v, &key);
  return true;
}

void fbViewer_HandleEvent(fbViewer *v, const SDL_Event *e)
{
  if (key_bar_event(v, e)) {
    return;
  }
  if (e->type == SDL_DROPFILE) {
    fbViewer_Open(v, e->drop.file);
    SDL_free(e->drop.file);
    return;
  }
  bool close = false;
  if (fbConsoleDock_Event(&v->console, e, fbViewer_Sim(v), v->selected, &close)) {
    v->docks.open[fbDock_Find("console")] = !close;
    return;
  }
  if (overlay_event(v, e) || fbUi_Event(&v->ui, e) || grab_event(v, e) || outside_world(v, e)) {
    return;
  }
  if (v->docks.open[fbDock_Find("trace")] && fbTraceDock_Key(&v->trace, e)) {
    return;  // Page Up/Down scroll the open trace rather than go to the scenario
  }
  action(v, fbInput_Event(&v->input, e, &v->camera, v->has_player));
}

// ---- drawing ------------------------------------------------------------------------------------

// "total" at the tip of the white arrow: the combined steering, which the inspector's legend explains.
static void label_total(fbViewer *v, const fbSim *sim, int i)
{
  const fbAgents *a = &fbSim_World(sim)->agents;
  fbVec2 p = fbCamera_ToScreen(&v->camera, fbV(a->px[i], a->py[i]));
  fbVec2 arrow = fbV_Scale(fbV(a->ax[i], a->ay[i]), v->px_per_accel);
  if (fbV_Length(arrow) > 12) {
    fbVec2 tip = fbV_Add(p, fbV_Scale(arrow, 1 + 6 / fbV_Length(arrow)));
    fbHud_Text(&v->hud, (int)tip.x, (int)tip.y - v->hud.line_h / 2, (SDL_Color){255, 255, 255, 255}, 0, "total", NULL,
               NULL);
  }
}

static void draw_world(fbViewer *v, int selected)
{
  const fbSim *sim = v->run->sim;
  SDL_Rect view = v->layout.world;
  SDL_RenderSetClipRect(v->sdl, &view);
  fbRender_World(&v->render, sim, &v->camera);
  if (v->trails) {
    fbRender_Trails(&v->render, sim, &v->camera);
  }
  fbRender_Agents(&v->render, sim, &v->camera);
  fbGrab_DrawHandles(v->sdl, sim, &v->camera);
  if (selected >= 0) {
    fbRender_Selection(&v->render, sim, &v->camera, selected, &v->px_per_accel);
    label_total(v, sim, selected);
    fbSelectionCircle circles[FB_MAX_SELECTION_CIRCLES];
    int n = fbRender_SelectionCircles(sim, selected, circles, FB_MAX_SELECTION_CIRCLES);
    const fbAgents *a = &fbSim_World(sim)->agents;
    double last = -INFINITY;
    for (int k = 0; k < n; ++k) {  // named where each crosses the line straight down, if not crowded
      double r = circles[k].radius * v->camera.scale;
      if (r < 24 || fabs(r - last) < v->hud.line_h) {
        continue;  // too small or too near the last one: the inspector lists it
      }
      last = r;
      fbVec2 p = fbCamera_ToScreen(&v->camera, fbV(a->px[selected], a->py[selected] + circles[k].radius));
      int w, h;
      char label[sizeof circles[k].label];  // in its box, which ends at the view's edge
      fbHud_Elide(&v->hud, circles[k].label, view.x + view.w - ((int)p.x + 8), label, sizeof label);
      fbHud_Measure(&v->hud, label, &w, &h);
      fbHud_Box(&v->hud, (SDL_Rect){(int)p.x + 2, (int)p.y - h / 2, w + 6, h});
      fbHud_Text(&v->hud, (int)p.x + 5, (int)p.y - h / 2, circles[k].colour, 0, label, NULL, NULL);
    }
  }
  for (int g = 0; g < fbSim_World(sim)->goal_count; ++g) {
    fbVec2 p = fbCamera_ToScreen(&v->camera, fbSim_World(sim)->goals[g].p);
    fbHud_Label(&v->hud, p.x, p.y, fbSim_World(sim)->goals[g].name);
  }
  for (int k = 0; k < fbSim_World(sim)->paths.count; ++k) {
    fbVec2 p = fbCamera_ToScreen(&v->camera, fbSim_World(sim)->paths.items[k].p);
    fbHud_Label(&v->hud, p.x, p.y, fbSim_World(sim)->paths.items[k].name);
  }
  fbHud_ScaleBar(&v->hud, view, v->camera.scale);
  SDL_RenderSetClipRect(v->sdl, NULL);
}

// The info dock's lines: what the viewer knows of its own state this frame.
static fbHudStatus status_of(fbViewer *v)
{
  const fbSim *sim = fbViewer_Sim(v);
  return (fbHudStatus){
      .frames_per_s = v->fps,
      .steps_per_s = v->sps,
      .time_scale = fbViewer_TimeScale(v),
      .steps_per_frame = sim ? fbViewer_TimeScale(v) * FB_FRAME_S / fbSim_World(sim)->dt : 0,
      .cost = v->cost,
      .profile = v->loaded ? v->profile : NULL,
      .profile_rows = v->loaded ? v->profile_rows : 0,
      .paused = v->paused,
      .finished = sim && v->cli.steps_given && v->run->steps >= v->cli.steps,
      .following_flock = v->follow == FB_FOLLOW_FLOCK,
      .following_agent = v->follow == FB_FOLLOW_AGENT,
      .scenario_failed = v->scenario_failed,
      .metrics = v->loaded ? v->run->telemetry.metrics : NULL,
      .load_error = v->loaded ? NULL : v->load_error,
      .notice = v->frames < v->notice_until ? v->notice : NULL,
      .drawing = fbRender_AgentMode(&v->render),
  };
}

// The open docks, each by its entry's draw function into its rectangle; then the key bar and the
// overlays over everything.
static void draw_overlay(fbViewer *v, int selected)
{
  fbUi_Begin(&v->ui);
  fbHudStatus status = status_of(v);
  fbSim *sim = fbViewer_Sim(v);
  fbTimeline timeline = {&v->rewind, sim ? fbSim_World(sim)->step : 0, v->seeking, v->seek_to, false, 0};
  fbDockFrame frame = {&v->hud, &v->ui, sim, &status, selected, v->px_per_accel, &v->panel, &v->plots,
                       &v->info_tab, &v->info_scroll, &timeline, &v->console, &v->trace, v->selected, v->window_options.program};
  for (int k = 0; k < fbDockCount; ++k) {
    if (v->docks.open[k]) {
      fbDockTable[k].draw(&frame, v->layout.dock[k]);
    }
  }
  if (timeline.asked) {
    fbViewer_Seek(v, timeline.ask);
  }
  v->key_bar_entries = fbHelp_KeyBar(&v->hud, v->layout.keys, (SDL_Point){v->ui.mouse_x, v->ui.mouse_y}, v->paused,
                                     v->key_bar_buttons, &v->key_bar_button_count);
  if (v->help) {
    fbHelp_Overlay(&v->hud, v->layout.keys.w, v->layout.keys.y + v->layout.keys.h, v->has_player);
  }
  if (v->asking_quit) {
    char path[512] = "", err[512];
    const char *slash = fbOverlay_Path(v->cli.scenario, path, sizeof path, err, sizeof err) ? strrchr(path, '/') : NULL;
    fbHelp_QuitPrompt(&v->hud, v->layout.keys.w, v->layout.keys.y + v->layout.keys.h,
                      slash ? slash + 1 : path[0] ? path : "SCENARIO_panel.lua");
  }
  if (v->list.open) {
    fbScenarioList_Draw(&v->list, &v->hud, v->layout.keys.w, v->layout.keys.y + v->layout.keys.h);
  }
  fbUi_End(&v->ui);
}

// ---- pictures and video -------------------------------------------------------------------------

static void save_screenshot(fbViewer *v)
{
  char path[128], err[512], text[192];
  if (fbCapture_Screenshot(v->sdl, path, sizeof path, err, sizeof err)) {
    printf("flockbox: saved %s\n", path);
    snprintf(text, sizeof text, "saved %s", path);
    fbViewer_Notify(v, text);
  } else {
    fprintf(stderr, "flockbox: %s\n", err);
    fbViewer_Notify(v, err);
  }
}

static void record_frame(fbViewer *v)
{
  if (!fbRecording_Frame(&v->recording, v->sdl)) {
    fprintf(stderr, "flockbox: %s: recording stopped (ffmpeg failed or the frame could not be read)\n",
            v->window_options.record);
    v->status = 1;
  }
}

// ---- the frame ----------------------------------------------------------------------------------

// Every half second of frame time the rates and the per-rule profile are renewed. Frame time, not
// the wall clock, decides when: with --frames or a recording a frame is exactly 1/60 s, so what a
// test or a video sees after N frames does not depend on how fast the machine drew them. The rates
// themselves are measured on the wall clock (they say how fast this machine is).
static void update_rates(fbViewer *v, double frame_s)
{
  v->rate_frames++;
  v->rate_frame_s += frame_s;
  if (v->rate_frame_s >= 0.5) {
    uint64_t now = SDL_GetPerformanceCounter();
    double elapsed = fmax((double)(now - v->rate_start) / SDL_GetPerformanceFrequency(), 1e-9);
    v->fps = v->rate_frames / elapsed;
    v->sps = v->rate_steps / elapsed;
    memset(&v->cost, 0, sizeof v->cost);
    cost_add(&v->cost, &v->cost_sum, v->rate_steps ? 1.0 / v->rate_steps : 0.0);
    memset(&v->cost_sum, 0, sizeof v->cost_sum);
    if (v->loaded && v->rate_steps > 0) {  // paused: the last table stays
      long steps;
      v->profile_rows = fbSim_ProfileTable(v->run->sim, v->profile, FB_PROFILE_MAX_ROWS, &steps);
      fbSim_ResetProfile(v->run->sim);
    }
    v->rate_frames = v->rate_steps = 0;
    v->rate_frame_s = 0;
    v->rate_start = now;
  }
}

// Seconds of real time this frame stands for: wall-clock time in the window, but exactly 1/60 when
// recording (the video plays at 60 frames per second) or with --frames (tests see the same steps).
static double frame_seconds(fbViewer *v)
{
  uint64_t now = SDL_GetPerformanceCounter();
  double wall = v->frame_start ? (double)(now - v->frame_start) / SDL_GetPerformanceFrequency() : FB_FRAME_S;
  v->frame_start = now;
  return (v->recording.pipe != NULL || v->window_options.frames > 0) ? FB_FRAME_S : fmin(wall, 0.1);
}

// The camera is where the last fit left it: the user has not panned, zoomed or followed since.
static bool still_fitted(const fbViewer *v)
{
  return v->camera.cx == v->fit_camera.cx && v->camera.cy == v->fit_camera.cy &&
         v->camera.scale == v->fit_camera.scale;
}

// The docks' rectangles for the window's size now. When a dock opens or closes or the window is
// resized, a camera the user has not moved since it was fitted fits the world into the new view;
// one they panned or zoomed keeps its centre and scale (Home fits it).
static void lay_out(fbViewer *v)
{
  int w, h;
  SDL_GetRendererOutputSize(v->sdl, &w, &h);
  v->layout = fbLayout_Compute(w, h, v->docks, v->hud.line_h);
  SDL_Rect view = v->layout.world, before = fbCamera_View(&v->camera);
  bool changed = !SDL_RectEquals(&view, &before);
  bool refit = !v->fitted || (changed && still_fitted(v));
  v->camera.view_x = view.x;
  v->camera.view_y = view.y;
  v->camera.view_w = view.w;
  v->camera.view_h = view.h;
  if (refit) {
    fbViewer_Fit(v);
    v->fitted = true;
  }
}

void fbViewer_Frame(fbViewer *v)
{
  lay_out(v);
  double frame_s = frame_seconds(v);
  if (v->loaded) {
    if (fbViewer_PickUpSaves(v) > 0 && v->error_stop.stopped) {
      fbViewer_MakeFailedStepAgain(v);
    }
    steer_player(v, frame_s);
    int due = steps_due(v, frame_s);
    if (due > 0) {  // the run goes on from here: snapshots kept after it are of a future it leaves
      fbRewind_Forget(&v->rewind, fbSim_World(v->run->sim)->step);
    }
    fbViewer_Advance(v, due);
    fbViewer_Replay(v);
    follow(v);
  }
  int selected = selected_index(v);
  if (selected >= 0) {
    fbSim *sim = v->run->sim;
    fbSim_UpdateGrid(sim);  // agents sorted for where they are now, so that whom it sees is current
    selected = fbWorld_FindAgent(fbSim_World(sim), v->selected);
    fbSim_Seen(sim, selected);
  }
  fbHud_Begin(&v->hud);
  SDL_SetRenderDrawColor(v->sdl, 22, 24, 28, 255);
  SDL_RenderClear(v->sdl);
  if (v->loaded) {
    draw_world(v, selected);
  }
  draw_overlay(v, selected);
  if (v->screenshot) {
    v->screenshot = false;
    save_screenshot(v);
  }
  if (v->recording.pipe != NULL) {
    record_frame(v);
  }
  bool last = v->window_options.frames > 0 && v->frames + 1 >= v->window_options.frames;
  char err[600];
  if (last && v->window_options.shot != NULL && !fbPicture_WritePng(v->sdl, v->window_options.shot, err, sizeof err)) {
    fprintf(stderr, "flockbox: %s\n", err);
    v->status = 1;
  }
  SDL_RenderPresent(v->sdl);
  update_rates(v, frame_s);
  v->frames++;
  if (v->window_options.frames > 0 && v->frames >= v->window_options.frames) {
    v->quit = true;
  }
}

// ---- life cycle ---------------------------------------------------------------------------------

// Without DISPLAY or WAYLAND_DISPLAY neither X11 nor Wayland can connect, and SDL's probe of
// Wayland prints its own complaint ("XDG_RUNTIME_DIR is invalid or not set") on stderr before our
// message. Only a console's own driver (kmsdrm) could still show a window: ask SDL for it alone,
// so a machine with no display at all gets our one message. A driver the user chose
// (SDL_VIDEODRIVER) is left alone. True when it asked.
static bool only_the_console_could_show(void)
{
#if defined(__unix__) && !defined(__APPLE__) && !defined(__EMSCRIPTEN__)
  if (getenv("DISPLAY") == NULL && getenv("WAYLAND_DISPLAY") == NULL && getenv("SDL_VIDEODRIVER") == NULL) {
    SDL_SetHint(SDL_HINT_VIDEODRIVER, "kmsdrm");
    return true;
  }
#endif
  return false;
}

static int open_window(fbViewer *v, char *err, size_t errlen)
{
#ifdef __EMSCRIPTEN__
  // SDL listens to the whole page's keys by default and cancels most of them (Backspace, arrows,
  // Ctrl+S, and every key while text input is off): the page's editor would get no typing, and
  // its typing would drive the window. The window takes the keys of its canvas only.
  SDL_SetHint(SDL_HINT_EMSCRIPTEN_KEYBOARD_ELEMENT, "#canvas");
#endif
  bool console_only = only_the_console_could_show();
  if (SDL_Init(SDL_INIT_VIDEO) != 0) {
    if (console_only) {
      snprintf(err, errlen, "no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set): run with "
               "--headless, or set DISPLAY");
      return 2;
    }
    snprintf(err, errlen, "cannot open a window: %s (no display? try --headless)", SDL_GetError());
    return 1;
  }
  // With no display SDL falls back to a driver that shows nothing ("offscreen", "dummy"): the
  // window would run unseen until killed. Unless the user chose such a driver on purpose
  // (SDL_VIDEODRIVER), say so and stop.
  const char *driver = SDL_GetCurrentVideoDriver();
  bool invisible = driver != NULL && (strcmp(driver, "offscreen") == 0 || strcmp(driver, "dummy") == 0);
  if (invisible && getenv("SDL_VIDEODRIVER") == NULL) {
    snprintf(err, errlen, "no display to open a window on (SDL found only its '%s' driver, which shows nothing): "
             "run with --headless, or set DISPLAY", driver);
    SDL_Quit();
    return 2;
  }
  char title[200];
  snprintf(title, sizeof title, "flockbox — %s", fbSim_Name(v->run->sim));
  // A recording keeps one frame size, so its window cannot be resized.
  Uint32 flags = v->window_options.record ? 0 : SDL_WINDOW_RESIZABLE;
  const fbWindowOptions *o = &v->window_options;
  int width = o->width > 0 ? o->width : WINDOW_W, height = o->height > 0 ? o->height : WINDOW_H;
  v->window = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width, height, flags);
  // The software renderer draws into the window's surface. SDL would present that surface through
  // an OpenGL texture when it can ("framebuffer acceleration"): on Xvfb, Mesa's software OpenGL then
  // copies every frame once more and the window runs at half the frame rate. Plain X11 images are
  // faster there, and no slower on a real display. SDL_FRAMEBUFFER_ACCELERATION=1 brings it back.
  SDL_SetHintWithPriority(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0", SDL_HINT_DEFAULT);
  if (v->window != NULL) {
    v->sdl = SDL_CreateRenderer(v->window, -1, SDL_RENDERER_PRESENTVSYNC);
    if (v->sdl == NULL) {
      v->sdl = SDL_CreateRenderer(v->window, -1, SDL_RENDERER_SOFTWARE);
    }
  }
  if (v->sdl == NULL) {
    snprintf(err, errlen, "cannot open a window: %s (no display? try --headless)", SDL_GetError());
    return 1;
  }
  return 0;
}

// Text a little larger on large windows, so 1920x1080 reads as well as 1280x800.
static int font_size(fbViewer *v)
{
  int w, h;
  SDL_GetRendererOutputSize(v->sdl, &w, &h);
  return h >= 1000 && w >= 1600 ? 16 : 14;
}

// --show: what is open at the start.
static void show(fbViewer *v, unsigned what, fbDocks docks)
{
  v->docks = docks;
  v->help = what & FB_SHOW_HELP;
  v->trails = what & FB_SHOW_TRAILS;
  v->info_tab = (what & FB_SHOW_ABOUT) ? 1 : 0;
  if (what & FB_SHOW_LIST) {
    fbScenarioList_Open(&v->list, v->cli.scenario);
  }
}

int fbViewer_Create(fbViewer *v, const fbCli *cli, const fbWindowOptions *window, char *err, size_t errlen)
{
  memset(v, 0, sizeof *v);
  v->cli = *cli;
  v->window_options = *window;
  v->cli.watch = true;  // the window always picks up saved rules and scenarios
  v->options = cli->run;
  v->speed = SPEED_DEFAULT;
  fbRewind_Init(&v->rewind, (size_t)window->rewind_mb << 20);
  fbConsoleDock_Init(&v->console);
  fbTraceDock_Init(&v->trace);
  fbErrorStop_Init(&v->error_stop, true);
  if (window->record != NULL && !fbCapture_FfmpegInstalled()) {
    snprintf(err, errlen, "--record %s: ffmpeg is not installed (on Debian: apt-get install ffmpeg)", window->record);
    return 2;
  }
  v->run = calloc(1, sizeof *v->run);
  FB_ASSERT(v->run != NULL);
  fbRunStart start = fbRun_Begin(v->run, &v->cli, &v->options, err, errlen);
  if (start != FB_START_RUNNING) {
    free(v->run);
    v->run = NULL;
    return start == FB_START_BAD_SCENARIO ? 2 : 1;  // as headless.c: bad input 2, an output not written 1
  }
  v->loaded = true;
  int status = open_window(v, err, errlen);
  char font_err[512];
  if (status == 0 && !fbHud_Init(&v->hud, v->sdl, FB_FONT_PATH, font_size(v), font_err, sizeof font_err)) {
    fprintf(stderr, "flockbox: %s; the window runs without text\n", font_err);
  }
  if (status == 0 && window->record != NULL && !fbRecording_Start(&v->recording, v->sdl, window->record, err, errlen)) {
    status = 2;
  }
  if (status != 0) {
    fbViewer_Destroy(v);
    return status;
  }
  fbRender_Init(&v->render, v->sdl);
  fbUi_Init(&v->ui, &v->hud);
  show(v, window->show, window->docks);
  fbViewer_Adopt(v);
  lay_out(v);
  if (window->inspect > 0 && fbWorld_FindAgent(fbSim_World(v->run->sim), (uint32_t)window->inspect) >= 0) {
    v->selected = (uint32_t)window->inspect;
    fbSim_Inspect(v->run->sim, v->selected);
  }
  v->rate_start = SDL_GetPerformanceCounter();
  return 0;
}

int fbViewer_Destroy(fbViewer *v)
{
  int status = v->status;
  char err[1024];
  // --png: the final frame's world, drawn as a headless run draws it.
  bool picture = v->loaded && v->frames > 0 && v->cli.png != NULL;
  int width = 0, height = 0;
  if (picture) {  // a failed restart leaves no sim to measure
    fbRender_PictureSize(v->run->sim, v->cli.png_width, v->cli.png_height, &width, &height);
  }
  if (picture && !fbRender_SavePng(v->run->sim, v->cli.png, width, height, err, sizeof err)) {
    fprintf(stderr, "flockbox: %s\n", err);
    status = 1;
  }
  if (!fbRecording_Stop(&v->recording)) {
    fprintf(stderr, "flockbox: %s: ffmpeg failed to write the video\n", v->window_options.record);
    status = 1;
  }
  if (v->loaded) {
    if (!fbViewer_EndRun(v)) {
      status = 1;
    }
    fbRun_Free(v->run);
    fbSim_Delete(v->run->sim);
  }
  free(v->run);
  fbRewind_Free(&v->rewind);
  fbConsoleDock_Free(&v->console);
  fbTraceDock_Free(&v->trace);
  fbErrorStop_Free(&v->error_stop);
  fbRender_Free(&v->render);
  fbHud_Free(&v->hud);
  if (v->sdl != NULL) {
    SDL_DestroyRenderer(v->sdl);
  }
  if (v->window != NULL) {
    SDL_DestroyWindow(v->window);
  }
  SDL_Quit();
  memset(v, 0, sizeof *v);
  return status;
}

static fbViewer *open_viewer;  // fbViewer_Run's, while its window is open

fbRun *fbViewer_OpenRun(void) { return open_viewer != NULL && open_viewer->loaded ? open_viewer->run : NULL; }

// One turn of the window: its events, then a frame. False once the window is to close.
static bool turn(fbViewer *v)
{
  SDL_Event e;
  while (SDL_PollEvent(&e)) {
    fbViewer_HandleEvent(v, &e);
  }
  if (v->quit) {
    return false;
  }
  fbViewer_Frame(v);
  return true;
}

#ifdef __EMSCRIPTEN__
/*
 * In a web page the browser owns the loop: it calls a turn at each of its animation frames (60 a
 * second on most screens), and the program must return to it between frames. The page cannot
 * "close"; quitting ends the run (its outputs written) and leaves the last frame on screen.
 */
static void page_turn(void *arg)
{
  fbViewer *v = arg;
  if (!turn(v)) {
    emscripten_cancel_main_loop();
    open_viewer = NULL;
    int status = fbViewer_Destroy(v);
    emscripten_force_exit(status);
  }
}
#endif

int fbViewer_Run(const fbCli *cli, const fbWindowOptions *window)
{
  static fbViewer v;  // large; static keeps it off the stack
  open_viewer = &v;
  char err[4096];
  int status = fbViewer_Create(&v, cli, window, err, sizeof err);
  if (status != 0) {
    fprintf(stderr, "flockbox: %s\n", err);
    return status;
  }
#ifdef __EMSCRIPTEN__
  emscripten_set_main_loop_arg(page_turn, &v, 0, 1);  // does not return: the page calls page_turn
#endif
  for (;;) {
    uint64_t start = SDL_GetPerformanceCounter();
    if (!turn(&v)) {
      break;
    }
    // Vsync may be missing (Xvfb, software renderers): never draw faster than 60 frames a second.
    double spent = (double)(SDL_GetPerformanceCounter() - start) / SDL_GetPerformanceFrequency();
    if (spent < FB_FRAME_S) {
      SDL_Delay((Uint32)((FB_FRAME_S - spent) * 1000));
    }
  }
  open_viewer = NULL;
  return fbViewer_Destroy(&v);
}
