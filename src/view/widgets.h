// widgets.h — the few immediate-mode widgets the window needs: panel, label, slider.
#ifndef FB_WIDGETS_H
#define FB_WIDGETS_H

#include "hud.h"

#define FB_UI_MAX_AREAS 4

/*
 * Immediate mode: each frame the caller lays widgets out again between fbUi_Begin and fbUi_End, and
 * a widget answers from the mouse state gathered by fbUi_Event since the last frame. A press that
 * starts on a slider makes it active; it follows the mouse until the button is released, even
 * outside the panel. A press and release within one frame still sets the value once.
 */
typedef struct fbUi {
  fbHud *hud;
  int mouse_x, mouse_y;
  bool down;              // left button held
  bool pressed;           // went down since the last frame
  int active;             // id of the slider being dragged, 0 none
  int wheel;              // wheel steps over a panel since the last frame
  SDL_Rect areas[FB_UI_MAX_AREAS], next_areas[FB_UI_MAX_AREAS];  // panels last frame / this frame
  int area_count, next_area_count;
} fbUi;

void fbUi_Init(fbUi *ui, fbHud *hud);

// Takes mouse events that belong to the widgets (over a panel drawn last frame, or while a slider
// is dragged); returns true if it took the event, false to leave it to the camera.
bool fbUi_Event(fbUi *ui, const SDL_Event *e);

void fbUi_Begin(fbUi *ui);
void fbUi_End(fbUi *ui);

// A translucent panel; clicks and the wheel over it go to the widgets from the next frame on.
void fbUi_Panel(fbUi *ui, SDL_Rect r);

// Text at x, y; returns its height.
int fbUi_Label(fbUi *ui, int x, int y, SDL_Color c, const char *text);

// A horizontal slider for *value in [lo, hi] with its label and value written on it; id (non-zero)
// names it from frame to frame. Returns true when the user changed the value this frame.
bool fbUi_Slider(fbUi *ui, int id, SDL_Rect r, const char *label, double *value, double lo, double hi);

#endif
