// camera.h — the view transform: which part of the world the window's view shows, and at what scale.
#ifndef FB_CAMERA_H
#define FB_CAMERA_H

#include <SDL.h>

#include "sim.h"

// World to screen: screen = (world - centre) * scale + view origin + view size / 2. Both have y
// down. The view is the part of the window the world is drawn in: what the docked panels leave.
// Panning and zooming move the centre and the scale (input.c); fitting sets both.
typedef struct fbCamera {
  double cx, cy;          // world point at the centre of the view
  double scale;           // pixels per world unit
  int view_x, view_y;     // top-left corner of the view in the window, pixels
  int view_w, view_h;     // pixels
} fbCamera;

// Centres the world in the view rectangle (which the camera takes) and scales it to fit with a
// margin in pixels.
void fbCamera_Fit(fbCamera *c, double world_w, double world_h, SDL_Rect view, int margin);

// As fbCamera_Fit on sim's world, or on the part of it its scenario's `view` names.
void fbCamera_FitScenario(fbCamera *c, const fbSim *sim, SDL_Rect view, int margin);

// The view rectangle.
SDL_Rect fbCamera_View(const fbCamera *c);
fbVec2 fbCamera_ToScreen(const fbCamera *c, fbVec2 world);
fbVec2 fbCamera_ToWorld(const fbCamera *c, fbVec2 screen);

#endif
