// layout.c — the docked panels' rectangles and the world's view between them.
#include "layout.h"

#include <math.h>

static int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

fbLayout fbLayout_Compute(int window_w, int window_h, fbDocks open, int line_h)
{
  fbLayout l = {0};
  int keys_h = line_h + 8;
  int body_h = window_h - keys_h > 0 ? window_h - keys_h : 0;
  l.keys = (SDL_Rect){0, body_h, window_w, window_h - body_h};
  int info_w = open.info ? clampi(window_w * 26 / 100, 290, 460) : 0;
  int params_w = open.params ? clampi(window_w * 26 / 100, 280, 380) : 0;
  // The world keeps at least a third of the width: the side docks share what is left above that.
  int spare = window_w - window_w / 3;
  if (info_w + params_w > spare && info_w + params_w > 0) {
    double f = (double)spare / (info_w + params_w);
    info_w = (int)floor(info_w * f);
    params_w = (int)floor(params_w * f);
  }
  l.info = (SDL_Rect){0, 0, info_w, body_h};
  l.params = (SDL_Rect){window_w - params_w, 0, params_w, body_h};
  int middle_w = window_w - info_w - params_w;
  int plots_h = open.plots ? clampi(body_h * 30 / 100, 150, 340) : 0;
  plots_h = plots_h > body_h / 2 ? body_h / 2 : plots_h;
  l.plots = (SDL_Rect){info_w, body_h - plots_h, middle_w, plots_h};
  l.world = (SDL_Rect){info_w, 0, middle_w, body_h - plots_h};
  return l;
}
