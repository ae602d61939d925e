// docks.c — the table of the window's docks and the function each draws itself with.
#include "docks.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "about_text.h"

/*
 * The next paragraph of a description written as a comment block, lines joined with spaces so the
 * dock wraps it to its own width: a paragraph ends before a line that starts with a space (a
 * command, an indented list), a "Try:" line or a blank one, and after the first line (the file's
 * title) and after a "Try:" line. Returns where the next one starts.
 */
static const char *about_paragraph(const char *at, bool first, char *out, size_t len)
{
  size_t used = 0;
  bool trying = strncmp(at, "Try:", 4) == 0;
  out[0] = '\0';
  while (*at != '\0') {
    const char *end = strchr(at, '\n');
    size_t n = end ? (size_t)(end - at) : strlen(at);
    if (used + n + 2 < len) {
      used += (size_t)snprintf(out + used, len - used, "%s%.*s", used ? " " : "", (int)n, at);
    }
    at += end ? n + 1 : n;
    bool next_apart = *at == ' ' || *at == '\n' || strncmp(at, "Try:", 4) == 0;
    if (first || trying || n == 0 || next_apart) {
      break;
    }
  }
  while (*at == '\n') {
    ++at;
  }
  return at;
}

// The About tab: the scenario's name, its file (from where the user stands), and what it shows (its
// description or header comment), the "Try:" lines bright so the commands stand out, naming the
// program as it was run so they can be pasted.
static void draw_about(const fbDockFrame *f, SDL_Rect area)
{
  const int pad = 8, wrap = area.w - 2 * pad;
  int y = area.y + 4, h;
  fbHud_Text(f->hud, area.x + pad, y, (SDL_Color){235, 235, 235, 255}, wrap, fbSim_Name(f->sim), NULL, &h);
  y += h;
  char source[600], shown[512], cwd[512];
  fbAbout_ShownPath(fbSim_Path(f->sim), getcwd(cwd, sizeof cwd), getenv("HOME"), shown, sizeof shown);
  snprintf(source, sizeof source, "file: %s", shown[0] ? shown : "(built in C)");
  fbHud_Text(f->hud, area.x + pad, y, (SDL_Color){170, 175, 185, 255}, wrap, source, NULL, &h);
  y += h + 6;
  char para[FB_DESCRIPTION_LEN], named[FB_DESCRIPTION_LEN + 512];
  const char *at = fbSim_Description(f->sim);
  for (bool first = true; *at != '\0' && y < area.y + area.h; first = false) {
    bool trying = strncmp(at, "Try:", 4) == 0;
    at = about_paragraph(at, first, para, sizeof para);
    SDL_Color c = trying ? (SDL_Color){140, 230, 140, 255} : (SDL_Color){200, 203, 210, 255};
    fbAbout_NameProgram(para, f->program, named, sizeof named);
    fbHud_Text(f->hud, area.x + pad, y, c, wrap, named, NULL, &h);
    y += h + 3;
  }
}

// Tabs across the top of the info dock; returns the area under them.
static SDL_Rect info_tabs(const fbDockFrame *f, SDL_Rect area)
{
  static const char *const names[] = {"status", "about"};
  int h = f->hud->line_h + 6, w = (area.w - 12) / 2;
  for (int k = 0; k < 2; ++k) {
    SDL_Rect tab = {area.x + 4 + k * (w + 4), area.y + 4, w, h};
    if (fbUi_Button(f->ui, tab, names[k])) {
      *f->info_tab = k;
    }
    if (*f->info_tab == k) {  // the open tab underlined
      SDL_SetRenderDrawColor(f->hud->sdl, 240, 200, 60, 255);
      SDL_RenderFillRect(f->hud->sdl, &(SDL_Rect){tab.x, tab.y + tab.h - 2, tab.w, 2});
    }
  }
  return (SDL_Rect){area.x, area.y + h + 6, area.w, area.h - h - 6};
}

/*
 * The status lines and the inspector, scrolled up by *f->info_scroll pixels: with an agent
 * inspected they can be taller than the dock (at 800 x 600), and the wheel over the dock scrolls
 * them, within [0, content - dock]; a thin bar at the right edge shows which part is in view.
 */
static void draw_status(const fbDockFrame *f, SDL_Rect area)
{
  SDL_RenderSetClipRect(f->hud->sdl, &area);  // scrolled lines go under the tabs, not over them
  int scroll = *f->info_scroll;
  SDL_Rect used = fbHud_Status(f->hud, f->sim, f->status, (SDL_Rect){area.x, area.y - scroll, area.w, area.h});
  int bottom = used.y + used.h;
  if (f->selected >= 0) {
    SDL_Rect below = {area.x, bottom, area.w, area.h - used.h};
    SDL_Rect inspector = fbHud_Inspector(f->hud, f->sim, f->selected, below, f->px_per_accel);
    bottom = inspector.y + inspector.h;
  } else if (f->sim != NULL) {
    int h = 0;
    fbHud_Text(f->hud, area.x + 8, bottom + 4, (SDL_Color){170, 175, 185, 255}, area.w - 16,
               "Click an agent to inspect it: its circles, what each rule adds, its fields.", NULL, &h);
    bottom += 4 + h;
  }
  const int content = bottom - (area.y - scroll), range = content > area.h ? content - area.h : 0;
  scroll -= fbUi_Wheel(f->ui, area) * 3 * f->hud->line_h;
  *f->info_scroll = scroll < 0 ? 0 : scroll > range ? range : scroll;
  if (range > 0) {
    const int thumb = area.h * area.h / content;
    SDL_SetRenderDrawColor(f->hud->sdl, 255, 255, 255, 70);
    SDL_RenderFillRect(f->hud->sdl, &(SDL_Rect){area.x + area.w - 4, area.y + (area.h - thumb) * *f->info_scroll / range,
                                                 3, thumb});
  }
}

// The info dock: status and legend at the top, the inspector (or how to get one) under them; or,
// in its About tab, what the scenario is.
static void draw_info(const fbDockFrame *f, SDL_Rect area)
{
  fbUi_Panel(f->ui, area);  // a panel: its tabs take clicks
  SDL_RenderSetClipRect(f->hud->sdl, &area);
  if (f->sim != NULL) {
    area = info_tabs(f, area);
  }
  if (f->sim != NULL && *f->info_tab == 1) {
    draw_about(f, area);
    SDL_RenderSetClipRect(f->hud->sdl, NULL);
    return;
  }
  draw_status(f, area);
  SDL_RenderSetClipRect(f->hud->sdl, NULL);
}

// The parameter panel; with nothing loaded (a restart failed) an empty dock keeps its place.
static void draw_params(const fbDockFrame *f, SDL_Rect area)
{
  if (f->sim != NULL) {
    fbPanel_Draw(f->panel, f->ui, f->sim, area);
  } else {
    fbHud_Box(f->hud, area);
  }
}

static void draw_plots(const fbDockFrame *f, SDL_Rect area)
{
  fbUi_Panel(f->ui, area);  // a panel: the wheel over it scrolls charts that do not all fit
  fbPlots_Draw(f->plots, f->ui, area);
}

// The rewind timeline; with nothing loaded an empty dock keeps its place.
static void draw_timeline(const fbDockFrame *f, SDL_Rect area)
{
  if (f->sim != NULL) {
    fbTimeline_Draw(f->timeline, f->ui, area);
  } else {
    fbHud_Box(f->hud, area);
  }
}

// The console: the scroll-back over the input line (console_dock.c).
static void draw_console(const fbDockFrame *f, SDL_Rect area) { fbConsoleDock_Draw(f->console, f->hud, f->ui, area); }

// The trace of the selected agent's next step (trace_dock.c).
static void draw_trace(const fbDockFrame *f, SDL_Rect area) { fbTraceDock_Draw(f->trace, f->hud, f->ui, area, f->selected_id); }

// The key bar lists the docks in this order, between O and T. Sizes are those that keep 900x600
// and 1920x1080 usable (tests/test_docks.c lays every dock out at both).
const fbDock fbDockTable[] = {
    {.name = "params", .title = "the parameter panel", .key = SDLK_TAB, .key_name = "Tab", .brief = "parameters",
     .meaning = "the parameter panel: drag, type, reset; wheel or scrollbar scrolls",
     .side = FB_DOCK_RIGHT, .percent = 26, .min_px = 280, .max_px = 380, .open = false, .draw = draw_params},
    {.name = "plots", .title = "the live plots", .key = SDLK_g, .key_name = "G", .brief = "plots",
     .meaning = "the live plots of the telemetry and the scenario's metrics",
     .side = FB_DOCK_BOTTOM, .percent = 30, .min_px = 150, .max_px = 340, .open = false, .draw = draw_plots},
    {.name = "info", .title = "the info panel", .key = SDLK_i, .key_name = "I", .brief = "info",
     .meaning = "the info panel: status, legend, inspector",
     .side = FB_DOCK_LEFT, .percent = 26, .min_px = 290, .max_px = 460, .open = true, .draw = draw_info},
    // Under the world (the bottom docks stack upwards from the key bar in this order): a line of
    // text over a bar, the same height at every window size.
    {.name = "timeline", .title = "the rewind timeline", .key = SDLK_l, .key_name = "L", .brief = "timeline",
     .meaning = "the rewind timeline: click or drag on it to go to that step (paused), Space goes on",
     .side = FB_DOCK_BOTTOM, .percent = 5, .min_px = 46, .max_px = 52, .open = true, .draw = draw_timeline},
    // Over the timeline: its lines are long (a source line and its locals), so it takes the width.
    {.name = "trace", .title = "the trace of the selected agent's next step", .key = SDLK_x, .key_name = "X",
     .brief = "trace", .meaning = "the trace of the selected agent's next step: each rule's lines and locals, the "
                                  "combiner's weights; '.' traces the next; wheel or Page Up/Down scrolls",
     .side = FB_DOCK_BOTTOM, .percent = 34, .min_px = 150, .max_px = 420, .open = false, .draw = draw_trace},
    // Last: the top of the bottom band, as a game's console drops over its world.
    {.name = "console", .title = "the Lua console", .key = SDLK_BACKQUOTE, .key_name = "`", .brief = "console",
     .meaning = "the Lua console: type a line, Enter runs it in the scenario; ` or Esc gives the keys back",
     .side = FB_DOCK_BOTTOM, .percent = 28, .min_px = 140, .max_px = 320, .open = false, .draw = draw_console},
};
const int fbDockCount = (int)(sizeof fbDockTable / sizeof fbDockTable[0]);
_Static_assert(sizeof fbDockTable / sizeof fbDockTable[0] <= FB_DOCK_MAX, "more docks than FB_DOCK_MAX has room for");

fbDocks fbDocks_Default(void)
{
  fbDocks d = {{false}};
  for (int k = 0; k < fbDockCount; ++k) {
    d.open[k] = fbDockTable[k].open;
  }
  return d;
}

int fbDock_Find(const char *name)
{
  for (int k = 0; k < fbDockCount; ++k) {
    if (strcmp(fbDockTable[k].name, name) == 0) {
      return k;
    }
  }
  return -1;
}

int fbDock_ForKey(SDL_Keycode key)
{
  for (int k = 0; k < fbDockCount; ++k) {
    if (fbDockTable[k].key == key) {
      return k;
    }
  }
  return -1;
}
