// widgets.h — the few immediate-mode widgets the window needs: panel, label, slider, text field, check box, button, scrollbar.
#ifndef FB_WIDGETS_H
#define FB_WIDGETS_H

#include "hud.h"

#define FB_UI_MAX_AREAS 8      // panels that take the mouse: one per dock at most (FB_DOCK_MAX)
#define FB_UI_EDIT_LEN 128      // longer than any value the panel takes: a text too long is refused, not cut

/*
 * Immediate mode: each frame the caller lays widgets out again between fbUi_Begin and fbUi_End, and
 * a widget answers from the mouse and keyboard state gathered by fbUi_Event since the last frame.
 * A press that starts on a slider or a scrollbar makes it active; it follows the mouse until the
 * button is released, even outside the panel. A press and release within one frame still sets the
 * value once.
 *
 * A text field being edited owns the keyboard: fbUi_Event takes every key and text event, so that
 * typing "r" into a field does not also restart the scenario. Enter applies, Esc cancels, a press
 * anywhere else cancels; a field that is no longer drawn stops being edited.
 */
typedef enum fbUiEdit { FB_UI_IDLE, FB_UI_EDITING, FB_UI_APPLY } fbUiEdit;

typedef struct fbUi {
  fbHud *hud;
  int mouse_x, mouse_y;
  bool down;              // left button held
  bool pressed;           // went down since the last frame
  int active;             // id of the slider or scrollbar being dragged, 0 none
  int grab;               // where the scrollbar's thumb was grabbed, pixels below its top
  int wheel;              // wheel steps over a panel since the last frame
  int wheel_x, wheel_y;   // where the mouse was when the wheel last turned
  int editing;            // id of the text field being edited, 0 none
  char edit[FB_UI_EDIT_LEN];
  bool edit_fresh;        // nothing typed yet: the first character replaces the shown text
  fbUiEdit edit_state;    // FB_UI_APPLY once Enter was pressed
  bool edit_seen;         // the edited field was drawn this frame
  SDL_Rect areas[FB_UI_MAX_AREAS], next_areas[FB_UI_MAX_AREAS];  // panels last frame / this frame
  int area_count, next_area_count;
} fbUi;

void fbUi_Init(fbUi *ui, fbHud *hud);

// Takes the events that belong to the widgets: mouse events over a panel drawn last frame or while
// a slider is dragged, and every key while a field is edited. Returns true if it took the event,
// false to leave it to the camera and the keys.
bool fbUi_Event(fbUi *ui, const SDL_Event *e);

void fbUi_Begin(fbUi *ui);
void fbUi_End(fbUi *ui);

// A translucent panel; clicks and the wheel over it go to the widgets from the next frame on.
void fbUi_Panel(fbUi *ui, SDL_Rect r);

// The wheel steps taken over r since the last frame (0 when the wheel turned elsewhere).
int fbUi_Wheel(const fbUi *ui, SDL_Rect r);

// Text at x, y; returns its height.
int fbUi_Label(fbUi *ui, int x, int y, SDL_Color c, const char *text);

// True when the left button went down inside r this frame (a header that folds, say).
bool fbUi_Pressed(const fbUi *ui, SDL_Rect r);

// A horizontal slider for *value in [lo, hi] with its label written on it, moving in steps of
// `step` from lo (0: continuously); id (non-zero) names it from frame to frame. Returns true when
// the user changed the value this frame.
bool fbUi_Slider(fbUi *ui, int id, SDL_Rect r, const char *label, double *value, double lo, double hi, double step);

// A one-line text field showing `shown`; a press on it starts editing. Returns FB_UI_APPLY (once,
// with what was typed in `typed`) when Enter is pressed, FB_UI_EDITING while it is edited.
fbUiEdit fbUi_Field(fbUi *ui, int id, SDL_Rect r, const char *shown, char *typed, size_t len);

// A check box at the left of r, ticked when on, with text beside it; true when pressed this frame
// (the caller flips the value).
bool fbUi_Check(fbUi *ui, SDL_Rect r, bool on, const char *text);

// A small button with text in its middle; true when pressed this frame.
bool fbUi_Button(fbUi *ui, SDL_Rect r, const char *text);

// A vertical scrollbar in `track` for content `content` pixels tall seen through `view` pixels:
// the thumb is dragged, a press on the track jumps there. Writes *scroll (0 .. content - view);
// returns true if it moved it.
bool fbUi_Scrollbar(fbUi *ui, int id, SDL_Rect track, int content, int view, int *scroll);

#endif
