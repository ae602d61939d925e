// layout.h — where the window's docked panels go and what they leave for the world.
#ifndef FB_LAYOUT_H
#define FB_LAYOUT_H

#include <SDL.h>
#include <stdbool.h>

// Which docks are open. A closed dock takes no room; the key bar says how to open it again.
typedef struct fbDocks {
  bool info;     // left: the status and the inspector (I)
  bool params;   // right: the parameter panel (Tab)
  bool plots;    // bottom: the live plots (G)
} fbDocks;

// Rectangles in window pixels; a closed dock has zero width or height.
typedef struct fbLayout {
  SDL_Rect info, params, plots;
  SDL_Rect keys;    // the key bar, one line along the bottom of the window
  SDL_Rect world;   // the rest: the world is drawn here and only here
} fbLayout;

/*
 * Docks never overlap the world: the left and right docks take columns of the full height above
 * the key bar, the plots take a band under the world between them. Widths follow the window (a
 * fraction of it, between a readable minimum and a maximum), and a dock shrinks before the world
 * drops below a third of the window, so 900x600 and 1920x1080 both keep a usable view.
 */
fbLayout fbLayout_Compute(int window_w, int window_h, fbDocks open, int line_h);

#endif
