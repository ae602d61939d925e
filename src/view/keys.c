// keys.c — the window's one table of keys: the action each key dispatches to, and its key bar and help words.
#include "keys.h"

#include "docks.h"

// One table for the keys, the key bar and the help overlay, so that none can disagree with another.
// The row of NULLs is where the docks' keys go, each from its own entry in the dock table (docks.c).
const fbKey fbKeyTable[] = {
    {"Space", "pause", "pause or run (the plots freeze with the world)", {{SDLK_SPACE, false, FB_ACTION_PAUSE}}},
    {".", "step", "one step while paused (hold to step on)",
     {{SDLK_PERIOD, false, FB_ACTION_STEP}, {SDLK_KP_PERIOD, false, FB_ACTION_STEP}}},
    {"+ / −", "speed", "faster / slower (time scale ×1/16 to ×64)",
     {{SDLK_PLUS, false, FB_ACTION_FASTER},
      {SDLK_EQUALS, false, FB_ACTION_FASTER},  // + without Shift on most layouts
      {SDLK_KP_PLUS, false, FB_ACTION_FASTER},
      {SDLK_MINUS, false, FB_ACTION_SLOWER},
      {SDLK_KP_MINUS, false, FB_ACTION_SLOWER}}},
    {"R", "restart", "restart with the same seed (your parameter changes stay)", {{SDLK_r, false, FB_ACTION_RESTART}}},
    {"N", "new seed", "restart with the next seed (your parameter changes stay)", {{SDLK_n, false, FB_ACTION_RESEED}}},
    {"Backspace", "rewind",
     "back to the last snapshot (every 50 steps or more; paused), then on with the rules as they are now",
     {{SDLK_BACKSPACE, false, FB_ACTION_REWIND}}},
    {"Shift+Backspace", "forward", "on to the next snapshot kept after a rewind (they go when the run goes on)",
     {{SDLK_BACKSPACE, true, FB_ACTION_FORWARD}}},
    {"O", "open", "open another scenario from scripts/ (or drop a .lua file on the window)",
     {{SDLK_o, false, FB_ACTION_OPEN}}},
    {NULL, NULL, NULL, {{0}}},
    {"E", "stop on error", "stop on error on or off: stop at a failing rule's step, re-run it when it is saved",
     {{SDLK_e, false, FB_ACTION_ERROR_STOP}}},
    {"T", "trails", "trails on or off", {{SDLK_t, false, FB_ACTION_TRAILS}}},
    {"[ / ]", "trail length", "shorter / longer trails",
     {{SDLK_LEFTBRACKET, false, FB_ACTION_TRAILS_SHORTER}, {SDLK_RIGHTBRACKET, false, FB_ACTION_TRAILS_LONGER}}},
    {"V", "flow", "the flow fields' arrows on or off (regions are always outlined)", {{SDLK_v, false, FB_ACTION_FLOW}}},
    {"F", "follow", "follow the flock's centre", {{SDLK_f, false, FB_ACTION_FOLLOW_FLOCK}}},
    {"Shift+F", "follow agent", "follow the selected agent", {{SDLK_f, true, FB_ACTION_FOLLOW_AGENT}}},
    {"Home", "fit", "fit the world into the view", {{SDLK_HOME, false, FB_ACTION_FIT}}},
    {"C", "print", "print every parameter to the terminal as Lua", {{SDLK_c, false, FB_ACTION_PRINT_PARAMS}}},
    {"Shift+C", "save", "save the panel's changes as a scenario beside it (NAME_panel.lua)",
     {{SDLK_c, true, FB_ACTION_SAVE_PARAMS}}},
    {"P", "screenshot", "save the window as a PNG", {{SDLK_p, false, FB_ACTION_SCREENSHOT}}},
    {"arrows", "steer", "steer the player (the autopilot resumes after 3 s without a key)", {{0}}},
    {"click", "select", "select an agent: its circles, arrows and fields", {{0}}},
    {"drag", "pan / move", "pan the view; on a goal, lamp or path point: move it", {{0}}},
    {"wheel", "zoom", "zoom about the cursor", {{0}}},
    {"Esc", "quit", "close the help or the list; else quit (asks if panel changes are unsaved)",
     {{SDLK_ESCAPE, false, FB_ACTION_QUIT}}},
    {"F1", "all keys", "this help (also ? or H)",
     {{SDLK_F1, false, FB_ACTION_HELP},
      {SDLK_h, false, FB_ACTION_HELP},
      {SDLK_QUESTION, false, FB_ACTION_HELP},
      {SDLK_SLASH, true, FB_ACTION_HELP}}},  // ? on most layouts; / alone goes to the scenario
};
const int fbKeyCount = (int)(sizeof fbKeyTable / sizeof fbKeyTable[0]);
_Static_assert(sizeof fbKeyTable / sizeof fbKeyTable[0] <= FB_KEY_TABLE_MAX, "FB_KEY_TABLE_MAX: room for every key");

// The action of the first press of sym whose Shift is `shift`; FB_ACTION_NONE if there is none.
static fbActionKind find(SDL_Keycode sym, bool shift)
{
  for (int k = 0; k < fbKeyCount; ++k) {
    for (const fbKeyPress *p = fbKeyTable[k].press; p < fbKeyTable[k].press + FB_KEY_PRESSES && p->sym != 0; ++p) {
      if (p->sym == sym && p->shift == shift) {
        return p->action;
      }
    }
  }
  return FB_ACTION_NONE;
}

fbActionKind fbKeys_Action(SDL_Keycode sym, Uint16 mod)
{
  if (fbDock_ForKey(sym) >= 0) {
    return FB_ACTION_DOCK;
  }
  // Shift+F is its own key; Shift+R is R.
  fbActionKind action = (mod & KMOD_SHIFT) ? find(sym, true) : FB_ACTION_NONE;
  action = action != FB_ACTION_NONE ? action : find(sym, false);
  return action != FB_ACTION_NONE ? action : FB_ACTION_SCENARIO_KEY;
}

bool fbKeys_Button(const fbKey *k, SDL_Keycode sym[2], Uint16 *mod)
{
  const fbKeyPress *first = &k->press[0];
  sym[0] = first->sym;
  sym[1] = 0;
  *mod = first->shift ? KMOD_SHIFT : 0;
  for (const fbKeyPress *p = first; p < k->press + FB_KEY_PRESSES && p->sym != 0 && sym[1] == 0; ++p) {
    sym[1] = p->action != first->action ? p->sym : 0;
  }
  return first->sym != 0;
}
