// console_dock.c — the window's console: an input line typed into, its scroll-back, history and Tab completion, over the engine's console.
#include "console_dock.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static char *copy_of(const char *s, size_t n)
{
  char *c = malloc(n + 1);
  FB_ASSERT(c != NULL);
  memcpy(c, s, n);
  c[n] = '\0';
  return c;
}

void fbConsoleDock_Init(fbConsoleDock *d)
{
  memset(d, 0, sizeof *d);
  fbConsole_Init(&d->console);
}

void fbConsoleDock_Free(fbConsoleDock *d)
{
  fbConsole_Free(&d->console);
  for (int k = 0; k < d->line_count; ++k) {
    free(d->lines[(d->first + k) % FB_CONSOLE_SCROLLBACK]);
  }
  for (int k = 0; k < d->history_count; ++k) {
    free(d->history[k]);
  }
  memset(d, 0, sizeof *d);
}

// One line into the ring, tabs (between a line's values, before a traceback's frames) as spaces.
static void add_line(fbConsoleDock *d, const char *s, size_t n)
{
  char expanded[1024];
  size_t used = 0;
  for (size_t k = 0; k < n && used + 4 < sizeof expanded; ++k) {
    if (s[k] == '\t') {
      memcpy(expanded + used, "    ", 4);
      used += 4;
    } else {
      expanded[used++] = s[k];
    }
  }
  if (d->line_count == FB_CONSOLE_SCROLLBACK) {
    free(d->lines[d->first]);
    d->first = (d->first + 1) % FB_CONSOLE_SCROLLBACK;
    d->line_count--;
  }
  d->lines[(d->first + d->line_count++) % FB_CONSOLE_SCROLLBACK] = copy_of(expanded, used);
}

void fbConsoleDock_Say(fbConsoleDock *d, const char *text)
{
  while (*text != '\0') {
    size_t n = strcspn(text, "\n");
    add_line(d, text, n);
    text += n + (text[n] == '\n');
  }
  d->scroll = 0;  // what was just said is in view
}

// The history keeps each line once, the newest last.
static void remember(fbConsoleDock *d, const char *line)
{
  if (d->history_count > 0 && strcmp(d->history[d->history_count - 1], line) == 0) {
    d->history_at = d->history_count;
    return;
  }
  if (d->history_count == FB_CONSOLE_HISTORY) {
    free(d->history[0]);
    memmove(d->history, d->history + 1, sizeof d->history[0] * (FB_CONSOLE_HISTORY - 1));
    d->history_count--;
  }
  d->history[d->history_count++] = copy_of(line, strlen(line));
  d->history_at = d->history_count;
}

static void set_input(fbConsoleDock *d, const char *text)
{
  snprintf(d->input, sizeof d->input, "%s", text);
  d->cursor = (int)strlen(d->input);
}

void fbConsoleDock_Submit(fbConsoleDock *d, fbSim *sim, uint32_t selected)
{
  char line[FB_CONSOLE_LINE_MAX + 1];
  snprintf(line, sizeof line, "%s", d->input + strspn(d->input, " \t"));
  for (size_t n = strlen(line); n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t'); --n) {
    line[n - 1] = '\0';
  }
  if (line[0] == '\0') {
    return;
  }
  static char out[65536];
  char echo[FB_CONSOLE_LINE_MAX + 8];
  snprintf(echo, sizeof echo, "> %s", line);
  fbConsoleDock_Say(d, echo);
  remember(d, line);
  if (sim == NULL) {
    fbConsoleDock_Say(d, "nothing is loaded");
  } else {
    d->console.selected = selected;
    fbConsole_Run(&d->console, sim, line, out, sizeof out);
    fbConsoleDock_Say(d, out);
  }
  set_input(d, "");
}

static void browse(fbConsoleDock *d, int by)
{
  int at = d->history_at + by;
  if (at < 0 || at > d->history_count) {
    return;
  }
  d->history_at = at;
  set_input(d, at < d->history_count ? d->history[at] : "");
}

static bool word_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.'; }

// Inside a quoted string: an odd number of unescaped quotes of the kind that opened it before `at`.
static bool in_string(const char *s, int at)
{
  char open = 0;
  for (int k = 0; k < at; ++k) {
    if (s[k] == '\\' && open) {
      ++k;
    } else if (open == 0 && (s[k] == '"' || s[k] == '\'')) {
      open = s[k];
    } else if (s[k] == open) {
      open = 0;
    }
  }
  return open != 0;
}

// How many bytes all the candidates share.
static size_t common_prefix(const fbCompletion *c)
{
  size_t n = strlen(c->word[0]);
  for (int k = 1; k < c->count; ++k) {
    size_t m = 0;
    while (m < n && c->word[k][m] == c->word[0][m]) {
      ++m;
    }
    n = m;
  }
  return n;
}

static void replace_word(fbConsoleDock *d, int start, const char *with, size_t n)
{
  size_t tail = strlen(d->input + d->cursor);
  if (start + n + tail >= sizeof d->input) {
    return;
  }
  memmove(d->input + start + n, d->input + d->cursor, tail + 1);
  memcpy(d->input + start, with, n);
  d->cursor = start + (int)n;
}

void fbConsoleDock_Complete(fbConsoleDock *d, fbSim *sim, uint32_t selected)
{
  int start = d->cursor;
  while (start > 0 && word_char(d->input[start - 1])) {
    --start;
  }
  if (sim == NULL) {
    return;
  }
  char word[FB_COMPLETE_LEN];
  snprintf(word, sizeof word, "%.*s", d->cursor - start, d->input + start);
  static fbCompletion found;
  d->console.selected = selected;
  fbConsole_Complete(&d->console, sim, word, in_string(d->input, start), &found);
  if (found.count == 0) {
    return;
  }
  size_t n = found.count == 1 ? strlen(found.word[0]) : common_prefix(&found);
  replace_word(d, start, found.word[0], n);
  if (found.count > 1) {
    char list[FB_COMPLETE_MAX * (FB_COMPLETE_LEN + 2) + 64];
    size_t used = 0;
    for (int k = 0; k < found.count; ++k) {
      used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? "  " : "", found.word[k]);
    }
    if (found.found > found.count) {
      snprintf(list + used, sizeof list - used, "  ... (%ld more)", found.found - found.count);
    }
    fbConsoleDock_Say(d, list);
  }
}

// The start of the UTF-8 character before (or the end of the one at) byte at.
static int char_before(const char *s, int at)
{
  do {
    --at;
  } while (at > 0 && ((unsigned char)s[at] & 0xC0) == 0x80);
  return at < 0 ? 0 : at;
}

static int char_after(const char *s, int at)
{
  if (s[at] == '\0') {
    return at;
  }
  do {
    ++at;
  } while (((unsigned char)s[at] & 0xC0) == 0x80);
  return at;
}

static void delete_range(fbConsoleDock *d, int from, int to)
{
  memmove(d->input + from, d->input + to, strlen(d->input + to) + 1);
  d->cursor = from;
}

// The text typed, at the cursor. The backquote that opens and closes the console is not Lua.
static void insert_text(fbConsoleDock *d, const char *text)
{
  for (; *text != '\0'; ++text) {
    size_t len = strlen(d->input);
    if (*text == '`' || len + 1 >= sizeof d->input) {
      continue;
    }
    memmove(d->input + d->cursor + 1, d->input + d->cursor, len - (size_t)d->cursor + 1);
    d->input[d->cursor++] = *text;
  }
}

// A key while the console has the focus; false when it lets go of it.
static bool key(fbConsoleDock *d, const SDL_KeyboardEvent *k, fbSim *sim, uint32_t selected, bool *close)
{
  switch (k->keysym.sym) {
  case SDLK_RETURN:
  case SDLK_KP_ENTER: fbConsoleDock_Submit(d, sim, selected); break;
  case SDLK_TAB: fbConsoleDock_Complete(d, sim, selected); break;
  case SDLK_BACKSPACE:
    if (d->cursor > 0) {
      delete_range(d, char_before(d->input, d->cursor), d->cursor);
    }
    break;
  case SDLK_DELETE: delete_range(d, d->cursor, char_after(d->input, d->cursor)); break;
  case SDLK_LEFT: d->cursor = char_before(d->input, d->cursor); break;
  case SDLK_RIGHT: d->cursor = char_after(d->input, d->cursor); break;
  case SDLK_HOME: d->cursor = 0; break;
  case SDLK_END: d->cursor = (int)strlen(d->input); break;
  case SDLK_UP: browse(d, -1); break;
  case SDLK_DOWN: browse(d, 1); break;
  case SDLK_PAGEUP: d->scroll += 5; break;
  case SDLK_PAGEDOWN: d->scroll = d->scroll > 5 ? d->scroll - 5 : 0; break;
  case SDLK_BACKQUOTE: *close = true; return false;
  case SDLK_ESCAPE: return false;
  default: break;
  }
  return true;
}

bool fbConsoleDock_Event(fbConsoleDock *d, const SDL_Event *e, fbSim *sim, uint32_t selected, bool *close)
{
  *close = false;
  if (!d->focus) {
    return false;
  }
  if (e->type == SDL_MOUSEBUTTONDOWN && !SDL_PointInRect(&(SDL_Point){e->button.x, e->button.y}, &d->area)) {
    d->focus = false;
    return false;
  }
  if (e->type == SDL_TEXTINPUT) {
    insert_text(d, e->text.text);
    return true;
  }
  if (e->type == SDL_KEYDOWN) {
    d->focus = key(d, &e->key, sim, selected, close);
    return true;
  }
  return e->type == SDL_KEYUP && e->key.keysym.sym != SDLK_LEFT && e->key.keysym.sym != SDLK_RIGHT &&
         e->key.keysym.sym != SDLK_UP && e->key.keysym.sym != SDLK_DOWN;  // a held arrow is let go
}

void fbConsoleDock_Focus(fbConsoleDock *d)
{
  d->focus = true;
  SDL_StartTextInput();
}

/*
 * From the bottom up: the input line (with its cursor while focused, else how to start typing),
 * then the scroll-back, newest first, as many lines as fit above it; the wheel scrolls back.
 */
void fbConsoleDock_Draw(fbConsoleDock *d, fbHud *hud, fbUi *ui, SDL_Rect area)
{
  d->area = area;
  fbHud_Box(hud, area);
  fbUi_Panel(ui, area);
  if (fbUi_Pressed(ui, area) && !d->focus) {
    fbConsoleDock_Focus(d);
  }
  SDL_RenderSetClipRect(hud->sdl, &area);
  const int pad = 8, lh = hud->line_h;
  int y = area.y + area.h - lh - 6;
  SDL_SetRenderDrawColor(hud->sdl, 255, 255, 255, d->focus ? 40 : 18);
  SDL_RenderFillRect(hud->sdl, &(SDL_Rect){area.x + 4, y - 2, area.w - 8, lh + 4});
  if (d->focus || d->input[0] != '\0') {
    char shown[FB_CONSOLE_LINE_MAX + 4];
    snprintf(shown, sizeof shown, "> %.*s", d->cursor, d->input);
    int w = 0, h = 0;
    fbHud_Measure(hud, shown, &w, &h);
    snprintf(shown, sizeof shown, "> %s", d->input);
    fbHud_Text(hud, area.x + pad, y, (SDL_Color){240, 240, 240, 255}, 0, shown, NULL, NULL);
    if (d->focus) {
      SDL_SetRenderDrawColor(hud->sdl, 240, 200, 60, 255);
      SDL_RenderFillRect(hud->sdl, &(SDL_Rect){area.x + pad + w, y, 2, lh});
    }
  } else {
    fbHud_Text(hud, area.x + pad, y, (SDL_Color){150, 155, 165, 255}, 0,
               "` or a click to type Lua here (Tab completes, Up/Down: history, Esc: back to the world)", NULL,
               NULL);
  }
  int fit = (y - 4 - area.y) / lh;
  d->scroll -= fbUi_Wheel(ui, area) * 3;
  int most = d->line_count > fit ? d->line_count - fit : 0;
  d->scroll = d->scroll < 0 ? 0 : d->scroll > most ? most : d->scroll;
  for (int k = 0; k < fit && k + d->scroll < d->line_count; ++k) {
    const char *line = d->lines[(d->first + d->line_count - 1 - k - d->scroll) % FB_CONSOLE_SCROLLBACK];
    SDL_Color c = line[0] == '>' ? (SDL_Color){140, 200, 240, 255} : (SDL_Color){215, 218, 225, 255};
    fbHud_Text(hud, area.x + pad, y - 4 - (k + 1) * lh, c, 0, line, NULL, NULL);
  }
  SDL_RenderSetClipRect(hud->sdl, NULL);
}
