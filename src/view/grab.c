// grab.c — picking and moving goals and path control points with the mouse.
#include "grab.h"

#include <string.h>

#define REACH 12  // pixels from a goal or a point that still grabs it

static double distance2(fbVec2 a, double x, double y) { return (a.x - x) * (a.x - x) + (a.y - y) * (a.y - y); }

fbGrab fbGrab_At(const fbSim *sim, const fbCamera *cam, int x, int y)
{
  const fbWorld *w = fbSim_World(sim);
  fbGrab best = {FB_GRAB_NONE, -1, -1};
  double best_d2 = REACH * REACH;
  for (int g = 0; g < w->goal_count; ++g) {
    double d2 = distance2(fbCamera_ToScreen(cam, w->goals[g].p), x, y);
    if (d2 <= best_d2) {
      best = (fbGrab){FB_GRAB_GOAL, g, -1};
      best_d2 = d2;
    }
  }
  if (best.kind == FB_GRAB_GOAL) {
    return best;
  }
  for (int k = 0; k < w->paths.count; ++k) {
    const fbPath *p = &w->paths.items[k];
    for (int i = 0; i < p->point_count; ++i) {
      double d2 = distance2(fbCamera_ToScreen(cam, p->points[i]), x, y);
      if (d2 <= best_d2) {
        best = (fbGrab){FB_GRAB_PATH_POINT, k, i};
        best_d2 = d2;
      }
    }
  }
  return best;
}

bool fbGrab_MoveTo(fbSim *sim, const fbCamera *cam, fbGrab g, int x, int y)
{
  const fbWorld *w = fbSim_World(sim);
  fbVec2 to = fbCamera_ToWorld(cam, fbV(x, y));
  to = fbV(fmin(w->width, fmax(0, to.x)), fmin(w->height, fmax(0, to.y)));
  if (g.kind == FB_GRAB_GOAL) {
    return fbSim_MoveGoal(sim, g.index, to);
  }
  return g.kind == FB_GRAB_PATH_POINT && fbSim_MovePathPoint(sim, g.index, g.point, to);
}

void fbGrab_DrawHandles(SDL_Renderer *sdl, const fbSim *sim, const fbCamera *cam)
{
  const fbWorld *w = fbSim_World(sim);
  SDL_SetRenderDrawColor(sdl, 150, 200, 255, 200);
  for (int k = 0; k < w->paths.count; ++k) {
    const fbPath *p = &w->paths.items[k];
    for (int i = 0; i < p->point_count; ++i) {
      fbVec2 s = fbCamera_ToScreen(cam, p->points[i]);
      SDL_RenderDrawRect(sdl, &(SDL_Rect){(int)s.x - 3, (int)s.y - 3, 7, 7});
    }
  }
}
