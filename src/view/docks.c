// docks.c — the table of the window's docks and the function each draws itself with.
#include "docks.h"

#include <string.h>

// The info dock: status and legend at the top, the inspector (or how to get one) under them.
static void draw_info(const fbDockFrame *f, SDL_Rect area)
{
  fbHud_Box(f->hud, area);
  SDL_RenderSetClipRect(f->hud->sdl, &area);
  SDL_Rect used = fbHud_Status(f->hud, f->sim, f->status, area);
  if (f->selected >= 0) {
    SDL_Rect below = {area.x, used.y + used.h, area.w, area.h - used.h};
    fbHud_Inspector(f->hud, f->sim, f->selected, below, f->px_per_accel);
  } else if (f->sim != NULL) {
    fbHud_Text(f->hud, area.x + 8, used.y + used.h + 4, (SDL_Color){170, 175, 185, 255}, area.w - 16,
               "Click an agent to inspect it: its circles, what each rule adds, its fields.", NULL, NULL);
  }
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
