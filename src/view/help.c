// help.c — one table of the window's keys and mouse actions (the docks' keys from the dock table), drawn as the key bar and the help overlay.
#include "help.h"

#include <string.h>

#include "docks.h"

#define PAD 8

typedef struct KeyHelp {
  const char *keys;      // as the user presses them
  const char *brief;     // in the key bar
  const char *meaning;   // in the overlay
} KeyHelp;

// One table for both, so the key bar and the overlay can never disagree with each other. The row
// of NULLs is where the docks' keys go, each from its own entry in the dock table (docks.c).
static const KeyHelp KEYS[] = {
    {"Space", "pause", "pause or run (the plots freeze with the world)"},
    {".", "step", "one step while paused (hold to step on)"},
    {"+ / −", "speed", "faster / slower (time scale ×1/16 to ×64)"},
    {"R", "restart", "restart with the same seed (your parameter changes stay)"},
    {"N", "new seed", "restart with the next seed (your parameter changes stay)"},
    {"O", "open", "open another scenario from scripts/ (or drop a .lua file on the window)"},
    {NULL, NULL, NULL},
    {"T", "trails", "trails on or off"},
    {"[ / ]", "trail length", "shorter / longer trails"},
    {"V", "flow", "the flow fields' arrows on or off (regions are always outlined)"},
    {"F", "follow", "follow the flock's centre"},
    {"Shift+F", "follow agent", "follow the selected agent"},
    {"Home", "fit", "fit the world into the view"},
    {"C", "print", "print every parameter to the terminal as Lua"},
    {"P", "screenshot", "save the window as a PNG"},
    {"arrows", "steer", "steer the player (the autopilot resumes after 3 s without a key)"},
    {"click", "select", "select an agent: its circles, arrows and fields"},
    {"drag", "pan / move", "pan the view; on a goal, lamp or path point: move it"},
    {"wheel", "zoom", "zoom about the cursor"},
    {"Esc", "quit", "close the help or the list; otherwise quit"},
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
      out[n++] = (KeyHelp){fbDockTable[d].key_name, fbDockTable[d].brief, fbDockTable[d].meaning};
    }
  }
  return n;
}

static const SDL_Color KEY = {255, 255, 255, 255};
static const SDL_Color DIM = {170, 175, 185, 255};

int fbHelp_KeyCount(void) { return KEYS_LISTED - 1 + fbDockCount; }

int fbHelp_KeyBar(fbHud *hud, SDL_Rect bar)
{
  fbHud_Box(hud, bar);
  const char *last = "F1 all keys";
  int last_w, h;
  fbHud_Measure(hud, last, &last_w, &h);
  int x = bar.x + PAD, y = bar.y + (bar.h - h) / 2, shown = 0;
  int right = bar.x + bar.w - PAD - last_w;
  KeyHelp keys[MAX_ENTRIES];
  int count = entries(keys);
  for (int k = 0; k < count; ++k) {
    char text[96];
    snprintf(text, sizeof text, "%s %s", keys[k].keys, keys[k].brief);
    int w;
    fbHud_Measure(hud, text, &w, &h);
    if (x + w + 16 > right) {
      break;  // collapse: the rest are one F1 away
    }
    fbHud_Text(hud, x, y, DIM, 0, text, NULL, NULL);
    x += w + 16;
    shown++;
  }
  fbHud_Text(hud, right, y, KEY, 0, last, NULL, NULL);
  return shown;
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
  fbHud_Text(hud, x, y, KEY, 0, "flockbox — keys and mouse (F1, ? or Esc closes this)", NULL, NULL);
  y += hud->line_h + PAD / 2;
  for (int k = 0; k < count; ++k) {
    fbHud_Text(hud, x, y, KEY, 0, keys[k].keys, NULL, NULL);
    const char *meaning = keys[k].meaning;
    if (strcmp(keys[k].keys, "arrows") == 0 && !has_player) {
      meaning = "sent to the scenario's on_key (this scenario has no player)";
    }
    fbHud_Text(hud, x + key_w + 3 * PAD, y, DIM, 0, meaning, NULL, NULL);
    y += hud->line_h;
  }
  fbHud_Text(hud, x, y + PAD / 2, DIM, 0, "Other keys go to the scenario's on_key.", NULL, NULL);
  SDL_RenderSetClipRect(hud->sdl, NULL);
}
