// help.c — one table of the window's keys and mouse actions (the docks' keys from the dock table), drawn as the key bar and the help overlay.
#include "help.h"

#include <string.h>

#include "docks.h"

#define PAD 8

typedef struct KeyHelp {
  const char *keys;      // as the user presses them
  const char *brief;     // in the key bar
  const char *meaning;   // in the overlay
  SDL_Keycode sym[2];    // what a click on its key bar entry presses (left half, right half); 0: none
  Uint16 mod;
} KeyHelp;

// One table for both, so the key bar and the overlay can never disagree with each other. The row
// of NULLs is where the docks' keys go, each from its own entry in the dock table (docks.c).
static const KeyHelp KEYS[] = {
    {"Space", "pause", "pause or run (the plots freeze with the world)", {SDLK_SPACE}, 0},
    {".", "step", "one step while paused (hold to step on)", {SDLK_PERIOD}, 0},
    {"+ / −", "speed", "faster / slower (time scale ×1/16 to ×64)", {SDLK_PLUS, SDLK_MINUS}, 0},
    {"R", "restart", "restart with the same seed (your parameter changes stay)", {SDLK_r}, 0},
    {"N", "new seed", "restart with the next seed (your parameter changes stay)", {SDLK_n}, 0},
    {"Backspace", "rewind", "back to the last snapshot (every 50 steps or more; paused), then on with the rules as they are now", {SDLK_BACKSPACE}, 0},
    {"Shift+Backspace", "forward", "on to the next snapshot kept after a rewind (they go when the run goes on)", {SDLK_BACKSPACE}, KMOD_SHIFT},
    {"O", "open", "open another scenario from scripts/ (or drop a .lua file on the window)", {SDLK_o}, 0},
    {NULL, NULL, NULL, {0}, 0},
    {"T", "trails", "trails on or off", {SDLK_t}, 0},
    {"[ / ]", "trail length", "shorter / longer trails", {SDLK_LEFTBRACKET, SDLK_RIGHTBRACKET}, 0},
    {"V", "flow", "the flow fields' arrows on or off (regions are always outlined)", {SDLK_v}, 0},
    {"F", "follow", "follow the flock's centre", {SDLK_f}, 0},
    {"Shift+F", "follow agent", "follow the selected agent", {SDLK_f}, KMOD_SHIFT},
    {"Home", "fit", "fit the world into the view", {SDLK_HOME}, 0},
    {"C", "print", "print every parameter to the terminal as Lua", {SDLK_c}, 0},
    {"P", "screenshot", "save the window as a PNG", {SDLK_p}, 0},
    {"arrows", "steer", "steer the player (the autopilot resumes after 3 s without a key)", {0}, 0},
    {"click", "select", "select an agent: its circles, arrows and fields", {0}, 0},
    {"drag", "pan / move", "pan the view; on a goal, lamp or path point: move it", {0}, 0},
    {"wheel", "zoom", "zoom about the cursor", {0}, 0},
    {"Esc", "quit", "close the help or the list; otherwise quit", {SDLK_ESCAPE}, 0},
};
#define KEYS_LISTED ((int)(sizeof KEYS / sizeof KEYS[0]))
#define MAX_ENTRIES (KEYS_LISTED + FB_DOCK_MAX)

// Every entry in order, the docks' in the place of the row of NULLs; returns how many.
static int entries(KeyHelp out[MAX_ENTRIES])
{
  int n = 0;
  for (int k = 0; k < KEYS_LISTED; ++k) {
    if (KEYS[k].keys != NULL) {
      out[n++] = KEYS[k];
      continue;
    }
    for (int d = 0; d < fbDockCount; ++d) {
      out[n++] = (KeyHelp){fbDockTable[d].key_name, fbDockTable[d].brief, fbDockTable[d].meaning,
                           {fbDockTable[d].key, 0}, 0};
    }
  }
  return n;
}

static const SDL_Color KEY = {255, 255, 255, 255};
static const SDL_Color DIM = {170, 175, 185, 255};

int fbHelp_KeyCount(void) { return KEYS_LISTED - 1 + fbDockCount; }

// An entry of the bar: a button when a click on it presses a key (lit under the mouse), else text.
static void bar_entry(fbHud *hud, const KeyHelp *k, SDL_Rect r, SDL_Point mouse, SDL_Color c, fbKeyBarButton *button)
{
  char text[96];
  snprintf(text, sizeof text, "%s %s", k->keys, k->brief);
  if (k->sym[0] != 0) {
    bool hover = SDL_PointInRect(&mouse, &r);
    SDL_SetRenderDrawColor(hud->sdl, 255, 255, 255, hover ? 60 : 16);
    SDL_RenderFillRect(hud->sdl, &r);
    *button = (fbKeyBarButton){r, {k->sym[0], k->sym[1]}, k->mod};
  }
  fbHud_Text(hud, r.x + 4, r.y + (r.h - hud->line_h) / 2, c, 0, text, NULL, NULL);
}

int fbHelp_KeyBar(fbHud *hud, SDL_Rect bar, SDL_Point mouse, fbKeyBarButton *buttons, int *button_count)
{
  fbHud_Box(hud, bar);
  const KeyHelp last = {"F1", "all keys", NULL, {SDLK_F1}, 0};
  int last_w, h;
  fbHud_Measure(hud, "F1 all keys", &last_w, &h);
  int x = bar.x + PAD, shown = 0, right = bar.x + bar.w - PAD - last_w - 8;
  SDL_Rect cell = {0, bar.y + 1, 0, bar.h - 2};
  KeyHelp keys[MAX_ENTRIES];
  int count = entries(keys);
  *button_count = 0;
  for (int k = 0; k < count; ++k) {
    char text[96];
    snprintf(text, sizeof text, "%s %s", keys[k].keys, keys[k].brief);
    int w;
    fbHud_Measure(hud, text, &w, &h);
    if (x + w + 12 > right) {
      break;  // collapse: the rest are one F1 away
    }
    cell.x = x - 4;
    cell.w = w + 8;
    bar_entry(hud, &keys[k], cell, mouse, DIM, &buttons[*button_count]);
    *button_count += keys[k].sym[0] != 0;
    x += w + 12;
    shown++;
  }
  cell.x = right - 4;
  cell.w = last_w + 8;
  bar_entry(hud, &last, cell, mouse, KEY, &buttons[(*button_count)++]);
  return shown;
}

bool fbHelp_KeyBarClick(const fbKeyBarButton *buttons, int count, SDL_Point at, SDL_Keycode *sym, Uint16 *mod)
{
  for (int k = 0; k < count; ++k) {
    const fbKeyBarButton *b = &buttons[k];
    if (SDL_PointInRect(&at, &b->rect)) {
      bool right_half = b->sym[1] != 0 && at.x >= b->rect.x + b->rect.w / 2;  // "+ / −": the second key
      *sym = right_half ? b->sym[1] : b->sym[0];
      *mod = b->mod;
      return true;
    }
  }
  return false;
}

void fbHelp_Overlay(fbHud *hud, int window_w, int window_h, bool has_player)
{
  KeyHelp keys[MAX_ENTRIES];
  int count = entries(keys);
  int key_w = 0;
  for (int k = 0; k < count; ++k) {
    int w, h;
    fbHud_Measure(hud, keys[k].keys, &w, &h);
    key_w = w > key_w ? w : key_w;
  }
  SDL_Rect box = fbHud_Dialog(hud, window_w, window_h, 760, (count + 3) * hud->line_h + 2 * PAD);
  int x = box.x + 2 * PAD, y = box.y + PAD;
  fbHud_TextFitted(hud, x, y, KEY, box.w - 3 * PAD, "flockbox — keys and mouse (F1, ? or Esc closes this)", NULL);
  y += hud->line_h + PAD / 2;
  for (int k = 0; k < count; ++k) {
    fbHud_Text(hud, x, y, KEY, 0, keys[k].keys, NULL, NULL);
    const char *meaning = keys[k].meaning;
    if (strcmp(keys[k].keys, "arrows") == 0 && !has_player) {
      meaning = "sent to the scenario's on_key (this scenario has no player)";
    }
    fbHud_TextFitted(hud, x + key_w + 3 * PAD, y, DIM, box.x + box.w - PAD - (x + key_w + 3 * PAD), meaning, NULL);
    y += hud->line_h;
  }
  fbHud_Text(hud, x, y + PAD / 2, DIM, 0, "Other keys go to the scenario's on_key.", NULL, NULL);
  SDL_RenderSetClipRect(hud->sdl, NULL);
}
