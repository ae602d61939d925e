// scenario_list.c — scanning a folder for scenarios and choosing one with keys or the mouse.
#define _POSIX_C_SOURCE 200809L
#include "scenario_list.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"

#define PAD 8

static int by_path(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

// "-- scripts/herd_hills.lua — a herd over hills ..." gives "a herd over hills ...".
static void read_title(const char *path, char *title, size_t len)
{
  title[0] = '\0';
  char why[256];
  FILE *f = fbFilePath_OpenRegular(path, FB_MAX_SCRIPT_BYTES, NULL, why, sizeof why);
  char first[512] = "";
  if (f == NULL || fgets(first, sizeof first, f) == NULL) {
    if (f != NULL) {
      fclose(f);
    }
    return;
  }
  fclose(f);
  first[strcspn(first, "\r\n")] = '\0';
  const char *dash = strstr(first, "—");
  const char *text = dash != NULL ? dash + strlen("—") : (strncmp(first, "--", 2) == 0 ? first + 2 : "");
  while (*text == ' ') {
    text++;
  }
  size_t n = strlen(text) < len - 1 ? strlen(text) : len - 1;  // a long line is cut
  memcpy(title, text, n);
  title[n] = '\0';
}

void fbScenarioList_Open(fbScenarioList *l, const char *current)
{
  const char *slash = strrchr(current, '/');
  if (slash != NULL) {
    snprintf(l->dir, sizeof l->dir, "%.*s", (int)(slash - current), current);
  } else {
    snprintf(l->dir, sizeof l->dir, ".");
  }
  l->count = 0;
  DIR *d = opendir(l->dir);
  struct dirent *e;
  while (d != NULL && (e = readdir(d)) != NULL && l->count < FB_LIST_MAX) {
    size_t n = strlen(e->d_name);
    if (n > 4 && strcmp(e->d_name + n - 4, ".lua") == 0 && e->d_name[0] != '.') {
      snprintf(l->paths[l->count++], sizeof l->paths[0], "%s/%s", l->dir, e->d_name);
    }
  }
  if (d != NULL) {
    closedir(d);
  }
  qsort(l->paths, (size_t)l->count, sizeof l->paths[0], by_path);
  l->selected = 0;
  for (int k = 0; k < l->count; ++k) {
    read_title(l->paths[k], l->titles[k], sizeof l->titles[k]);
    const char *base = strrchr(l->paths[k], '/');
    const char *cur = strrchr(current, '/');
    if (strcmp(base ? base : l->paths[k], cur ? cur : current) == 0) {
      l->selected = k;
    }
  }
  l->first = 0;
  l->open = true;
}

static void choose(fbScenarioList *l, int k, char *chosen, size_t len)
{
  if (k >= 0 && k < l->count) {
    snprintf(chosen, len, "%s", l->paths[k]);
    l->open = false;
  }
}

static bool key(fbScenarioList *l, SDL_Keycode sym, char *chosen, size_t len)
{
  switch (sym) {
  case SDLK_ESCAPE:
  case SDLK_o: l->open = false; break;
  case SDLK_UP: l->selected = l->selected > 0 ? l->selected - 1 : 0; break;
  case SDLK_DOWN: l->selected = l->selected + 1 < l->count ? l->selected + 1 : l->selected; break;
  case SDLK_PAGEUP: l->selected = l->selected > 10 ? l->selected - 10 : 0; break;
  case SDLK_PAGEDOWN: l->selected = l->selected + 10 < l->count ? l->selected + 10 : l->count - 1; break;
  case SDLK_RETURN:
  case SDLK_KP_ENTER: choose(l, l->selected, chosen, len); break;
  default: break;
  }
  return true;
}

bool fbScenarioList_Event(fbScenarioList *l, const SDL_Event *e, char *chosen, size_t len)
{
  chosen[0] = '\0';
  switch (e->type) {
  case SDL_KEYDOWN: return key(l, e->key.keysym.sym, chosen, len);
  case SDL_KEYUP:
  case SDL_TEXTINPUT:
  case SDL_MOUSEMOTION: return true;
  case SDL_MOUSEWHEEL:
    l->first -= e->wheel.y * 3;
    return true;
  case SDL_MOUSEBUTTONDOWN:
    for (int k = 0; k < l->count; ++k) {
      SDL_Rect r = l->rows[k];
      if (r.w > 0 && e->button.x >= r.x && e->button.x < r.x + r.w && e->button.y >= r.y && e->button.y < r.y + r.h) {
        choose(l, k, chosen, len);
        return true;
      }
    }
    l->open = false;  // a click outside the list closes it
    return true;
  case SDL_MOUSEBUTTONUP: return true;
  default: return false;
  }
}

void fbScenarioList_Draw(fbScenarioList *l, fbHud *hud, int window_w, int window_h)
{
  int row_h = hud->line_h + 4;
  int fits = (window_h - 6 * PAD) / row_h - 2;
  fits = fits < 1 ? 1 : fits;
  int shown = l->count < fits ? l->count : fits;
  // Keep the selection in view; the wheel moves the window over the list.
  if (l->selected < l->first) {
    l->first = l->selected;
  }
  if (l->selected >= l->first + shown) {
    l->first = l->selected - shown + 1;
  }
  l->first = l->first > l->count - shown ? l->count - shown : l->first;
  l->first = l->first < 0 ? 0 : l->first;
  SDL_Rect box = fbHud_Dialog(hud, window_w, window_h, 820, (shown + 2) * row_h + 2 * PAD);
  char head[640];
  snprintf(head, sizeof head, "Open a scenario from %s/ (Up/Down, Enter or click; Esc closes; or drop a .lua file)",
           l->dir);
  int x = box.x + 2 * PAD, y = box.y + PAD;
  fbHud_TextFitted(hud, x, y, (SDL_Color){255, 255, 255, 255}, box.w - 3 * PAD, head, NULL);
  y += row_h + PAD / 2;
  memset(l->rows, 0, sizeof l->rows);
  if (l->count == 0) {
    fbHud_Text(hud, x, y, (SDL_Color){255, 110, 100, 255}, 0, "no .lua files here", NULL, NULL);
  }
  for (int k = l->first; k < l->first + shown; ++k, y += row_h) {
    l->rows[k] = (SDL_Rect){box.x + PAD, y - 2, box.w - 2 * PAD, row_h};
    if (k == l->selected) {
      SDL_SetRenderDrawColor(hud->sdl, 90, 150, 230, 120);
      SDL_RenderFillRect(hud->sdl, &l->rows[k]);
    }
    const char *base = strrchr(l->paths[k], '/');
    int w;
    fbHud_Text(hud, x, y, (SDL_Color){255, 255, 255, 255}, 0, base ? base + 1 : l->paths[k], &w, NULL);
    fbHud_TextFitted(hud, x + 190, y, (SDL_Color){170, 175, 185, 255}, box.x + box.w - PAD - (x + 190), l->titles[k], NULL);
  }
  SDL_RenderSetClipRect(hud->sdl, NULL);
}
