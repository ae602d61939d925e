// layout.c — the docks' rectangles and the world's view between them.
#include "layout.h"

#include <math.h>

static int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

static bool on_a_side(fbDockSide side) { return side != FB_DOCK_BOTTOM; }

// The side docks shrink in proportion, rounding down, until together they leave the world a third
// of the width. The factor is a double, as it was before the dock table: with a single side dock
// it may leave one pixel more for the world than exact division would (at widths under 376), and
// every window size keeps the layout it had (checked against the old code at every size to 4200).
static void fit_sides(int size[], int room)
{
  long total = 0;
  for (int k = 0; k < fbDockCount; ++k) {
    total += on_a_side(fbDockTable[k].side) ? size[k] : 0;
  }
  if (total <= room) {
    return;
  }
  double f = (double)room / total;
  for (int k = 0; k < fbDockCount; ++k) {
    if (on_a_side(fbDockTable[k].side)) {
      size[k] = (int)floor(size[k] * f);
    }
  }
}

// The bottom docks shrink in proportion, rounding down, until together they leave the world half of
// the height; exact division, so a single bottom dock takes exactly that half.
static void fit_bottom(int size[], int room)
{
  long total = 0;
  for (int k = 0; k < fbDockCount; ++k) {
    total += on_a_side(fbDockTable[k].side) ? 0 : size[k];
  }
  if (total <= room) {
    return;
  }
  for (int k = 0; k < fbDockCount; ++k) {
    if (!on_a_side(fbDockTable[k].side)) {
      size[k] = (int)(size[k] * (long)room / total);
    }
  }
}

// Each dock's width or height as its entry asks, before fitting; 0 if it is closed.
static void measure(int size[], fbDocks open, int window_w, int body_h)
{
  for (int k = 0; k < fbDockCount; ++k) {
    const fbDock *d = &fbDockTable[k];
    int whole = on_a_side(d->side) ? window_w : body_h;
    size[k] = open.open[k] ? clampi(whole * d->percent / 100, d->min_px, d->max_px) : 0;
  }
}

// The side docks from the edges inwards, then the bottom docks from the key bar upwards between
// them; what is left is the world's.
static void place(fbLayout *l, const int size[], int window_w, int body_h)
{
  int left = 0, right = window_w, bottom = body_h;
  for (int k = 0; k < fbDockCount; ++k) {
    if (fbDockTable[k].side == FB_DOCK_LEFT) {
      l->dock[k] = (SDL_Rect){left, 0, size[k], body_h};
      left += size[k];
    } else if (fbDockTable[k].side == FB_DOCK_RIGHT) {
      right -= size[k];
      l->dock[k] = (SDL_Rect){right, 0, size[k], body_h};
    }
  }
  for (int k = 0; k < fbDockCount; ++k) {
    if (fbDockTable[k].side == FB_DOCK_BOTTOM) {
      bottom -= size[k];
      l->dock[k] = (SDL_Rect){left, bottom, right - left, size[k]};
    }
  }
  l->world = (SDL_Rect){left, 0, right - left, bottom};
}

fbLayout fbLayout_Compute(int window_w, int window_h, fbDocks open, int line_h)
{
  fbLayout l = {0};
  int keys_h = line_h + 8;
  int body_h = window_h - keys_h > 0 ? window_h - keys_h : 0;
  l.keys = (SDL_Rect){0, body_h, window_w, window_h - body_h};
  int size[FB_DOCK_MAX] = {0};
  measure(size, open, window_w, body_h);
  fit_sides(size, window_w - window_w / 3);
  fit_bottom(size, body_h / 2);
  place(&l, size, window_w, body_h);
  return l;
}
