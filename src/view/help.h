// help.h — every key and mouse action of the window, as a key bar along the bottom and a help overlay (F1, ?).
#ifndef FB_HELP_H
#define FB_HELP_H

#include "hud.h"

// A key bar entry a click presses keys with, as NetLogo's buttons: where it is drawn, the key (the
// second one for the right half of a pair such as "+ / −") and its modifiers.
typedef struct fbKeyBarButton {
  SDL_Rect rect;
  SDL_Keycode sym[2];
  Uint16 mod;
} fbKeyBarButton;

#define FB_KEY_BAR_MAX_BUTTONS 48

// The key bar: as many of the short entries as fit the width, always ending with "F1 all keys",
// those that stand for keys drawn as buttons (lit under the mouse), written into buttons (room
// for FB_KEY_BAR_MAX_BUTTONS) with their count. Returns how many entries it showed (tests check
// that it collapses rather than wraps).
// While paused, Space reads "resume".
int fbHelp_KeyBar(fbHud *hud, SDL_Rect bar, SDL_Point mouse, bool paused, fbKeyBarButton *buttons, int *button_count);

// The key a click at `at` on the key bar presses; false when it is on no button.
bool fbHelp_KeyBarClick(const fbKeyBarButton *buttons, int count, SDL_Point at, SDL_Keycode *sym, Uint16 *mod);

// The help overlay over the whole window: every key and mouse action with what it does.
void fbHelp_Overlay(fbHud *hud, int window_w, int window_h, bool has_player);

// The prompt Esc shows when the parameter panel holds unsaved changes: save (to `file`), quit or go back.
void fbHelp_QuitPrompt(fbHud *hud, int window_w, int window_h, const char *file);

// How many entries the key bar has in all.
int fbHelp_KeyCount(void);

#endif
