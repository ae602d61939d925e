// layout.h — where the window's docks go (by the dock table's sides and sizes) and what they leave for the world.
#ifndef FB_LAYOUT_H
#define FB_LAYOUT_H

#include "docks.h"

// Rectangles in window pixels; a closed dock has zero width or height.
typedef struct fbLayout {
  SDL_Rect dock[FB_DOCK_MAX];  // indexed like fbDockTable
  SDL_Rect keys;               // the key bar, one line along the bottom of the window
  SDL_Rect world;              // the rest: the world is drawn here and only here
} fbLayout;

/*
 * Docks never overlap the world: the left and right docks take columns of the full height above
 * the key bar (the table's first entry on a side outermost), the bottom docks take bands under the
 * world between them. Each is sized by its entry (a share of the window between a readable minimum
 * and a maximum); then the side docks shrink together, in proportion, before the world drops below
 * a third of the window's width, and the bottom docks before it drops below half of the height, so
 * 900x600 and 1920x1080 both keep a usable view.
 */
fbLayout fbLayout_Compute(int window_w, int window_h, fbDocks open, int line_h);

#endif
