// keys.h — the window's one table of keys: what each does, and its words in the key bar and the help overlay.
#ifndef FB_KEYS_H
#define FB_KEYS_H

#include <SDL.h>
#include <stdbool.h>

// What a key, a click or a window event asks the viewer to do (input.c makes them, viewer.c does them).
typedef enum fbActionKind {
  FB_ACTION_NONE,
  FB_ACTION_QUIT,
  FB_ACTION_PAUSE,           // Space
  FB_ACTION_STEP,            // . : one step while paused
  FB_ACTION_FASTER,          // +
  FB_ACTION_SLOWER,          // -
  FB_ACTION_RESTART,         // R: same seed
  FB_ACTION_RESEED,          // N: a new seed
  FB_ACTION_FOLLOW_FLOCK,    // F
  FB_ACTION_FOLLOW_AGENT,    // Shift+F
  FB_ACTION_FIT,             // Home
  FB_ACTION_PRINT_PARAMS,    // C
  FB_ACTION_SAVE_PARAMS,     // Shift+C
  FB_ACTION_SCREENSHOT,      // P
  FB_ACTION_TRAILS,          // T
  FB_ACTION_TRAILS_SHORTER,  // [
  FB_ACTION_TRAILS_LONGER,   // ]
  FB_ACTION_FLOW,            // V: the flow fields' arrows
  FB_ACTION_DOCK,            // a dock's key (docks.c): open or close that dock
  FB_ACTION_HELP,            // F1, ? or H
  FB_ACTION_OPEN,            // O: the scenario list
  FB_ACTION_SELECT,          // a click (not a drag) at x, y
  FB_ACTION_CAMERA_MOVED,    // the user panned: stop following
  FB_ACTION_SCENARIO_KEY,    // a key the viewer does not use: for the scenario's on_key
  FB_ACTION_REWIND,          // Backspace: back to the previous snapshot (rewind.h)
  FB_ACTION_FORWARD,         // Shift+Backspace: on to the next snapshot kept after a rewind
  FB_ACTION_ERROR_STOP,      // E: stop on error on or off (error_stop.h)
} fbActionKind;

// One key that does something, with Shift held (shift) or either way.
typedef struct fbKeyPress {
  SDL_Keycode sym;
  bool shift;  // only with Shift; a press without it finds the key's entry that has shift false
  fbActionKind action;
} fbKeyPress;

#define FB_KEY_PRESSES 5

// An entry of the key bar and the help overlay and the keys it stands for. A click on its key bar
// entry presses its first key; for a pair such as "+ / −", the right half presses the first key
// whose action differs. An entry with no keys (the mouse, the arrows) is only words.
typedef struct fbKey {
  const char *keys;     // as the user presses them; NULL: the docks' keys go here (docks.c)
  const char *brief;    // in the key bar
  const char *meaning;  // in the help overlay
  fbKeyPress press[FB_KEY_PRESSES];  // ends at the first sym 0
} fbKey;

// Every key of the window but the docks' (fbDockTable has those), in the order shown; the last
// (F1, the help) is shown at the end of the key bar whatever its width.
extern const fbKey fbKeyTable[];
extern const int fbKeyCount;
#define FB_KEY_TABLE_MAX 32  // room for fbKeyTable in the lists drawn from it (help.c)

// The action of a key pressed with modifiers mod: a dock's key (fbDockTable) first, then this
// table; FB_ACTION_SCENARIO_KEY for a key neither has.
fbActionKind fbKeys_Action(SDL_Keycode sym, Uint16 mod);

// What a click on entry k of the key bar presses: the key (sym[1]: the right half's, or 0) and
// its modifiers; false for an entry that stands for no key.
bool fbKeys_Button(const fbKey *k, SDL_Keycode sym[2], Uint16 *mod);

#endif
