// camera.c — world to screen and back, and fitting the world (or the scenario's view of it) into the window's view.
#include "camera.h"

void fbCamera_Fit(fbCamera *c, double world_w, double world_h, SDL_Rect view, int margin)
{
  c->view_x = view.x;
  c->view_y = view.y;
  c->view_w = view.w;
  c->view_h = view.h;
  c->cx = world_w / 2;
  c->cy = world_h / 2;
  double sx = (view.w - 2.0 * margin) / world_w, sy = (view.h - 2.0 * margin) / world_h;
  c->scale = fmax(1e-6, fmin(sx, sy));
}

void fbCamera_FitScenario(fbCamera *c, const fbSim *sim, SDL_Rect view, int margin)
{
  const fbWorld *w = fbSim_World(sim);
  fbCamera_Fit(c, w->width, w->height, view, margin);
  double x, y, width;
  if (fbSim_View(sim, &x, &y, &width)) {  // width world units across the view's shorter side
    c->cx = x;
    c->cy = y;
    c->scale = fmax(1e-6, (fmin(view.w, view.h) - 2.0 * margin) / width);
  }
}

SDL_Rect fbCamera_View(const fbCamera *c) { return (SDL_Rect){c->view_x, c->view_y, c->view_w, c->view_h}; }

fbVec2 fbCamera_ToScreen(const fbCamera *c, fbVec2 p)
{
  return fbV((p.x - c->cx) * c->scale + c->view_x + c->view_w * 0.5,
             (p.y - c->cy) * c->scale + c->view_y + c->view_h * 0.5);
}

fbVec2 fbCamera_ToWorld(const fbCamera *c, fbVec2 s)
{
  return fbV((s.x - c->view_x - c->view_w * 0.5) / c->scale + c->cx,
             (s.y - c->view_y - c->view_h * 0.5) / c->scale + c->cy);
}
