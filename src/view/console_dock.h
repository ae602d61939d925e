// console_dock.h — the window's console: an input line typed into, its scroll-back, history and Tab completion, over the engine's console.
#ifndef FB_CONSOLE_DOCK_H
#define FB_CONSOLE_DOCK_H

#include "console.h"
#include "hud.h"
#include "widgets.h"

#define FB_CONSOLE_SCROLLBACK 400  // lines of output kept (the oldest go first)
#define FB_CONSOLE_HISTORY 100     // lines typed that Up and Down bring back

/*
 * What the console dock holds between frames. The lines run through the engine's console
 * (console.h), so they run, show their values and are recorded exactly as headless --console's
 * are; this adds what a person typing needs: a line edited with a cursor, what was said before it
 * (the scroll-back, newest at the bottom), the lines typed before (Up, Down) and completion (Tab).
 * While it has the focus every key is its own, so that typing "r" restarts nothing.
 */
typedef struct fbConsoleDock {
  fbConsole console;
  bool focus;                              // keys and text go to the input line
  char input[FB_CONSOLE_LINE_MAX + 1];
  int cursor;                              // byte offset into input
  char *lines[FB_CONSOLE_SCROLLBACK];      // a ring: lines[(first + k) % max], k < line_count
  int first, line_count;
  char *history[FB_CONSOLE_HISTORY];       // oldest first
  int history_count;
  int history_at;                          // the entry Up/Down shows; history_count: the line being typed
  int scroll;                              // scroll-back lines scrolled up (the wheel)
  SDL_Rect area;                           // where it was drawn last (a click elsewhere gives the keys back)
} fbConsoleDock;

void fbConsoleDock_Init(fbConsoleDock *d);
void fbConsoleDock_Free(fbConsoleDock *d);

// Adds text to the scroll-back, a line per line of it.
void fbConsoleDock_Say(fbConsoleDock *d, const char *text);

// Runs the input line (when not empty) in sim, as `> line` then its output; keeps it in the
// history. sel is the agent selected (0: nil).
void fbConsoleDock_Submit(fbConsoleDock *d, fbSim *sim, uint32_t selected);

// Tab: completes the word before the cursor (console.h fbConsole_Complete). One candidate replaces
// it; several extend it to what they share and are listed in the scroll-back.
void fbConsoleDock_Complete(fbConsoleDock *d, fbSim *sim, uint32_t selected);

// While it has the focus: takes every key and text event (true), edits, runs, browses, completes;
// Esc or ` lets go of the focus (*close set for `: the dock closes too), and so does a click
// outside the dock (the click goes on to the window). Without the focus, takes nothing.
bool fbConsoleDock_Event(fbConsoleDock *d, const SDL_Event *e, fbSim *sim, uint32_t selected, bool *close);

// Takes the focus (text input on).
void fbConsoleDock_Focus(fbConsoleDock *d);

// Draws the scroll-back over the input line into area; a click on it takes the focus.
void fbConsoleDock_Draw(fbConsoleDock *d, fbHud *hud, fbUi *ui, SDL_Rect area);

#endif
