// input.c — keys to actions (through the key table, keys.c), camera drag and zoom about the cursor, picking agents, following the flock.
#include "input.h"

#include <string.h>

#include "docks.h"
#include "fb_math.h"
#include "measures.h"

#define CLICK_SLOP 4         // pixels a press may move and still count as a click
#define ZOOM_STEP 1.15       // per wheel notch

static int arrow_index(SDL_Keycode sym)
{
  switch (sym) {
  case SDLK_LEFT: return 0;
  case SDLK_RIGHT: return 1;
  case SDLK_UP: return 2;
  case SDLK_DOWN: return 3;
  default: return -1;
  }
}

static bool is_modifier(SDL_Keycode sym)
{
  return sym == SDLK_LSHIFT || sym == SDLK_RSHIFT || sym == SDLK_LCTRL || sym == SDLK_RCTRL || sym == SDLK_LALT ||
         sym == SDLK_RALT || sym == SDLK_LGUI || sym == SDLK_RGUI || sym == SDLK_CAPSLOCK || sym == SDLK_NUMLOCKCLEAR;
}

static fbAction key_down(fbInput *in, const SDL_KeyboardEvent *k, bool has_player)
{
  fbAction a = {FB_ACTION_NONE, 0, 0, NULL, -1};
  SDL_Keycode sym = k->keysym.sym;
  int arrow = arrow_index(sym);
  if (arrow >= 0) {
    in->arrows[arrow] = true;
    if (has_player) {
      return a;
    }
  }
  if (is_modifier(sym)) {
    return a;
  }
  a.kind = arrow >= 0 ? FB_ACTION_SCENARIO_KEY : fbKeys_Action(sym, k->keysym.mod);
  // Holding "." steps on; every other key acts once per press.
  if (k->repeat && a.kind != FB_ACTION_STEP) {
    a.kind = FB_ACTION_NONE;
  }
  if (a.kind == FB_ACTION_SCENARIO_KEY) {
    a.key = SDL_GetKeyName(sym);
  }
  if (a.kind == FB_ACTION_DOCK) {
    a.dock = fbDock_ForKey(sym);
  }
  return a;
}

static fbAction mouse(fbInput *in, const SDL_Event *e, fbCamera *cam)
{
  fbAction a = {FB_ACTION_NONE, 0, 0, NULL, -1};
  if (e->type == SDL_MOUSEBUTTONDOWN && e->button.button == SDL_BUTTON_LEFT) {
    in->button = true;
    in->dragged = false;
    in->press_x = e->button.x;
    in->press_y = e->button.y;
  } else if (e->type == SDL_MOUSEBUTTONUP && e->button.button == SDL_BUTTON_LEFT && in->button) {
    in->button = false;
    if (!in->dragged) {
      a = (fbAction){FB_ACTION_SELECT, e->button.x, e->button.y, NULL, -1};
    }
  } else if (e->type == SDL_MOUSEMOTION && in->button) {
    int dx = e->motion.x - in->press_x, dy = e->motion.y - in->press_y;
    int move_x = e->motion.xrel, move_y = e->motion.yrel;
    if (!in->dragged && dx * dx + dy * dy > CLICK_SLOP * CLICK_SLOP) {
      in->dragged = true;
      move_x = dx;  // the drag starts where the button went down: catch up the slop
      move_y = dy;
    }
    if (in->dragged) {
      cam->cx -= move_x / cam->scale;
      cam->cy -= move_y / cam->scale;
      a.kind = FB_ACTION_CAMERA_MOVED;
    }
  } else if (e->type == SDL_MOUSEWHEEL) {
    double notches = e->wheel.preciseY != 0 ? e->wheel.preciseY : e->wheel.y;
    if (e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED) {
      notches = -notches;
    }
    fbInput_ZoomAt(cam, e->wheel.mouseX, e->wheel.mouseY, fbMath_Pow(ZOOM_STEP, notches));
  }
  return a;
}

fbAction fbInput_Event(fbInput *in, const SDL_Event *e, fbCamera *cam, bool has_player)
{
  fbAction none = {FB_ACTION_NONE, 0, 0, NULL, -1};
  switch (e->type) {
  case SDL_QUIT: return (fbAction){FB_ACTION_QUIT, 0, 0, NULL, -1};
  case SDL_KEYDOWN: return key_down(in, &e->key, has_player);
  case SDL_KEYUP: {
    int arrow = arrow_index(e->key.keysym.sym);
    if (arrow >= 0) {
      in->arrows[arrow] = false;
    }
    return none;
  }
  case SDL_WINDOWEVENT:
    if (e->window.event == SDL_WINDOWEVENT_CLOSE) {
      return (fbAction){FB_ACTION_QUIT, 0, 0, NULL, -1};
    }
    if (e->window.event == SDL_WINDOWEVENT_FOCUS_LOST) {
      memset(in->arrows, 0, sizeof in->arrows);  // the key-up goes to another window
    }
    return none;
  case SDL_MOUSEBUTTONDOWN:
  case SDL_MOUSEBUTTONUP:
  case SDL_MOUSEMOTION:
  case SDL_MOUSEWHEEL: return mouse(in, e, cam);
  default: return none;
  }
}

fbVec2 fbInput_Steering(const fbInput *in)
{
  return fbV((double)in->arrows[1] - in->arrows[0], (double)in->arrows[3] - in->arrows[2]);
}

void fbInput_ZoomAt(fbCamera *cam, double sx, double sy, double factor)
{
  fbVec2 before = fbCamera_ToWorld(cam, fbV(sx, sy));
  cam->scale = fmin(1e4, fmax(1e-4, cam->scale * factor));
  fbVec2 after = fbCamera_ToWorld(cam, fbV(sx, sy));
  cam->cx += before.x - after.x;
  cam->cy += before.y - after.y;
}

int fbInput_Pick(const fbSim *sim, const fbCamera *cam, int sx, int sy)
{
  const fbWorld *w = fbSim_World(sim);
  const fbAgents *a = &w->agents;
  int best = -1;
  double best_d2 = INFINITY;
  for (int i = 0; i < a->count; ++i) {
    if (!a->active[i]) {
      continue;
    }
    fbVec2 p = fbCamera_ToScreen(cam, fbV(a->px[i], a->py[i]));
    double reach = fmax(8.0, 0.6 * w->species[a->species[i]].body_length * cam->scale);
    double d2 = (p.x - sx) * (p.x - sx) + (p.y - sy) * (p.y - sy);
    if (d2 <= reach * reach && d2 < best_d2) {
      best = i;
      best_d2 = d2;
    }
  }
  return best;
}

fbVec2 fbInput_FlockCentre(const fbSim *sim)
{
  const fbWorld *w = fbSim_World(sim);
  const fbAgents *a = &w->agents;
  double sx = 0, sy = 0, cx = 0, snx = 0, cy = 0, sny = 0;
  int n = 0;
  for (int i = 0; i < a->count; ++i) {
    if (!a->active[i]) {
      continue;
    }
    sx += a->px[i];
    sy += a->py[i];
    double s, c;
    fbMath_SinCos(2 * FB_PI * a->px[i] / w->width, &s, &c);
    cx += c;
    snx += s;
    fbMath_SinCos(2 * FB_PI * a->py[i] / w->height, &s, &c);
    cy += c;
    sny += s;
    n++;
  }
  if (n == 0) {
    return fbV(w->width / 2, w->height / 2);
  }
  bool wrap = w->bounds == FB_BOUNDS_WRAP;
  return fbV(fbMeasures_AxisCentre(wrap, sx, snx, cx, n, w->width), fbMeasures_AxisCentre(wrap, sy, sny, cy, n, w->height));
}
