// help.h — every key and mouse action of the window, as a key bar along the bottom and a help overlay (F1, ?).
#ifndef FB_HELP_H
#define FB_HELP_H

#include "hud.h"

// The key bar: as many of the short entries as fit the width, always ending with "F1 all keys".
// Returns how many entries it showed (tests check that it collapses rather than wraps).
int fbHelp_KeyBar(fbHud *hud, SDL_Rect bar);

// The help overlay over the whole window: every key and mouse action with what it does.
void fbHelp_Overlay(fbHud *hud, int window_w, int window_h, bool has_player);

// How many entries the key bar has in all.
int fbHelp_KeyCount(void);

#endif
