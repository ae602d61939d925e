// widgets.c — panel, label and slider drawn and handled in immediate mode.
#include "widgets.h"

#include <string.h>

void fbUi_Init(fbUi *ui, fbHud *hud)
{
  memset(ui, 0, sizeof *ui);
  ui->hud = hud;
}

static bool inside(SDL_Rect r, int x, int y) { return x >= r.x && y >= r.y && x < r.x + r.w && y < r.y + r.h; }

static bool over_panel(const fbUi *ui, int x, int y)
{
  for (int k = 0; k < ui->area_count; ++k) {
    if (inside(ui->areas[k], x, y)) {
      return true;
    }
  }
  return false;
}

bool fbUi_Event(fbUi *ui, const SDL_Event *e)
{
  switch (e->type) {
  case SDL_MOUSEBUTTONDOWN:
    if (e->button.button != SDL_BUTTON_LEFT || !over_panel(ui, e->button.x, e->button.y)) {
      return false;
    }
    ui->mouse_x = e->button.x;
    ui->mouse_y = e->button.y;
    ui->down = ui->pressed = true;
    return true;
  case SDL_MOUSEBUTTONUP:
    if (e->button.button != SDL_BUTTON_LEFT || !ui->down) {
      return false;
    }
    ui->mouse_x = e->button.x;
    ui->mouse_y = e->button.y;
    ui->down = false;
    return true;
  case SDL_MOUSEMOTION:
    ui->mouse_x = e->motion.x;
    ui->mouse_y = e->motion.y;
    return ui->down;
  case SDL_MOUSEWHEEL:
    if (!over_panel(ui, e->wheel.mouseX, e->wheel.mouseY)) {
      return false;
    }
    ui->wheel += e->wheel.y;
    return true;
  default:
    return false;
  }
}

void fbUi_Begin(fbUi *ui)
{
  ui->next_area_count = 0;
}

void fbUi_End(fbUi *ui)
{
  if (!ui->down) {
    ui->active = 0;
  }
  ui->pressed = false;
  ui->wheel = 0;
  memcpy(ui->areas, ui->next_areas, sizeof ui->areas);
  ui->area_count = ui->next_area_count;
}

void fbUi_Panel(fbUi *ui, SDL_Rect r)
{
  fbHud_Box(ui->hud, r);
  if (ui->next_area_count < FB_UI_MAX_AREAS) {
    ui->next_areas[ui->next_area_count++] = r;
  }
}

int fbUi_Label(fbUi *ui, int x, int y, SDL_Color c, const char *text)
{
  int h;
  fbHud_Text(ui->hud, x, y, c, 0, text, NULL, &h);
  return h;
}

bool fbUi_Slider(fbUi *ui, int id, SDL_Rect r, const char *label, double *value, double lo, double hi)
{
  if (ui->pressed && inside(r, ui->mouse_x, ui->mouse_y)) {
    ui->active = id;
  }
  bool changed = false;
  if (ui->active == id && hi > lo) {
    double t = fmin(1.0, fmax(0.0, (ui->mouse_x - r.x) / (double)fmax(1, r.w - 1)));
    double v = lo + t * (hi - lo);
    changed = v != *value;
    *value = v;
  }
  SDL_Renderer *sdl = ui->hud->sdl;
  SDL_SetRenderDrawBlendMode(sdl, SDL_BLENDMODE_BLEND);
  SDL_SetRenderDrawColor(sdl, 255, 255, 255, 28);
  SDL_RenderFillRect(sdl, &r);
  double t = hi > lo ? fmin(1.0, fmax(0.0, (*value - lo) / (hi - lo))) : 0.0;
  SDL_SetRenderDrawColor(sdl, 90, 150, 230, ui->active == id ? 200 : 140);
  SDL_RenderFillRect(sdl, &(SDL_Rect){r.x, r.y, (int)(t * r.w), r.h});
  char text[160];
  snprintf(text, sizeof text, "%s  %.4g", label, *value);
  int th;
  fbHud_Measure(ui->hud, text, &(int){0}, &th);
  fbUi_Label(ui, r.x + 6, r.y + (r.h - th) / 2, (SDL_Color){240, 240, 240, 255}, text);
  return changed;
}
