// help.c — the key table (keys.c) and the docks' keys (docks.c) drawn as the key bar and the help overlay.
#include "help.h"

#include <stdio.h>
#include <string.h>

#include "docks.h"
#include "keys.h"

#define PAD 8

// An entry as shown: one of the key table's (keys.c) or a dock's (docks.c).
typedef struct KeyHelp {
  const char *keys;      // as the user presses them
  const char *brief;     // in the key bar
  const char *meaning;   // in the overlay
  SDL_Keycode sym[2];    // what a click on its key bar entry presses (left half, right half); 0: none
  Uint16 mod;
} KeyHelp;

#define MAX_ENTRIES (FB_KEY_TABLE_MAX + FB_DOCK_MAX)

static KeyHelp shown_key(const fbKey *k)
{
  KeyHelp h = {k->keys, k->brief, k->meaning, {0, 0}, 0};
  fbKeys_Button(k, h.sym, &h.mod);
  return h;
}

// Every entry in order, the docks' in the place of the key table's row of NULLs; returns how many.
// The last is the help's own key, which the key bar always shows at its end.
static int entries(KeyHelp out[MAX_ENTRIES])
{
  int n = 0;
  for (int k = 0; k < fbKeyCount; ++k) {
    if (fbKeyTable[k].keys != NULL) {
      out[n++] = shown_key(&fbKeyTable[k]);
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

int fbHelp_KeyCount(void) { return fbKeyCount - 1 + fbDockCount; }

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

int fbHelp_KeyBar(fbHud *hud, SDL_Rect bar, SDL_Point mouse, bool paused, fbKeyBarButton *buttons, int *button_count)
{
  fbHud_Box(hud, bar);
  KeyHelp keys[MAX_ENTRIES];
  int count = entries(keys) - 1;
  for (int k = 0; k < count && paused; ++k) {
    if (keys[k].sym[0] == SDLK_SPACE) {
      keys[k].brief = "resume";  // what the key does now
    }
  }
  const KeyHelp *last = &keys[count];  // "F1 all keys", always there
  char text[96];
  snprintf(text, sizeof text, "%s %s", last->keys, last->brief);
  int last_w, h;
  fbHud_Measure(hud, text, &last_w, &h);
  int x = bar.x + PAD, shown = 0, right = bar.x + bar.w - PAD - last_w - 8;
  SDL_Rect cell = {0, bar.y + 1, 0, bar.h - 2};
  *button_count = 0;
  for (int k = 0; k < count; ++k) {
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
  bar_entry(hud, last, cell, mouse, KEY, &buttons[(*button_count)++]);
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

void fbHelp_QuitPrompt(fbHud *hud, int window_w, int window_h, const char *file)
{
  char save[640];
  snprintf(save, sizeof save, "S  save them as %s and quit", file);
  SDL_Rect box = fbHud_Dialog(hud, window_w, window_h, 560, 5 * hud->line_h + 2 * PAD);
  int x = box.x + 2 * PAD, y = box.y + PAD, w = box.w - 3 * PAD;
  fbHud_TextFitted(hud, x, y, KEY, w, "Quit? The parameter panel's changes are not saved.", NULL);
  y += hud->line_h + PAD / 2;
  fbHud_TextFitted(hud, x, y, KEY, w, save, NULL);
  y += hud->line_h;
  fbHud_TextFitted(hud, x, y, KEY, w, "Q  quit without saving", NULL);
  y += hud->line_h;
  fbHud_TextFitted(hud, x, y, DIM, w, "Esc  back to the run", NULL);
  SDL_RenderSetClipRect(hud->sdl, NULL);
}
