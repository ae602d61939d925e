// view_api.c — the public drawing functions of flockbox_view.h over the window's own renderer (render.h).
#include <flockbox/flockbox_view.h>

#include "render.h"

struct fbView {
  fbRenderer render;  // the terrain texture and batches, kept from frame to frame
};

fbView *fbView_New(struct SDL_Renderer *renderer)
{
  fbView *view = calloc(1, sizeof *view);
  FB_ASSERT(view != NULL);
  fbRender_Init(&view->render, renderer);
  return view;
}

void fbView_Delete(fbView *view)
{
  if (view != NULL) {
    fbRender_Free(&view->render);
    free(view);
  }
}

void fbView_Draw(fbView *view, const fbSim *sim, int x, int y, int width, int height)
{
  fbCamera camera;
  fbCamera_Fit(&camera, fbSim_World(sim)->width, fbSim_World(sim)->height, (SDL_Rect){x, y, width, height}, 8);
  fbRender_World(&view->render, sim, &camera);
  fbRender_Agents(&view->render, sim, &camera);
}

void fbView_Forget(fbView *view) { fbRender_Forget(&view->render); }

bool fbView_SavePng(const fbSim *sim, const char *path, int width, int height, char *err, size_t errlen)
{
  return fbRender_SavePng(sim, path, width, height, err, errlen);
}
