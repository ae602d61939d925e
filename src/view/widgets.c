// widgets.c — panel, label, slider, text field, check box, button and scrollbar drawn and handled in immediate mode.
#include "widgets.h"

#include <string.h>

static const SDL_Color TEXT = {240, 240, 240, 255};

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

static void stop_editing(fbUi *ui)
{
  ui->editing = 0;
  ui->edit_state = FB_UI_IDLE;
}

// While a field is edited every key is its: characters arrive as text events, and the keys that
// end or correct the text as key events. Nothing reaches the viewer's keys meanwhile.
static bool edit_event(fbUi *ui, const SDL_Event *e)
{
  if (e->type == SDL_TEXTINPUT) {
    size_t used = ui->edit_fresh ? 0 : strlen(ui->edit);
    snprintf(ui->edit + used, sizeof ui->edit - used, "%s", e->text.text);
    ui->edit_fresh = false;
  } else if (e->type == SDL_KEYDOWN) {
    SDL_Keycode k = e->key.keysym.sym;
    if (k == SDLK_RETURN || k == SDLK_KP_ENTER) {
      ui->edit_state = FB_UI_APPLY;
    } else if (k == SDLK_ESCAPE) {
      stop_editing(ui);
    } else if (k == SDLK_BACKSPACE) {
      size_t n = ui->edit_fresh ? 0 : strlen(ui->edit);
      ui->edit[n > 0 ? n - 1 : 0] = '\0';
      ui->edit_fresh = false;
    }
  }
  return true;
}

bool fbUi_Event(fbUi *ui, const SDL_Event *e)
{
  bool keyboard = e->type == SDL_KEYDOWN || e->type == SDL_KEYUP || e->type == SDL_TEXTINPUT ||
                  e->type == SDL_TEXTEDITING;
  if (ui->editing && keyboard) {
    return edit_event(ui, e);
  }
  switch (e->type) {
  case SDL_MOUSEBUTTONDOWN:
    if (ui->editing) {
      stop_editing(ui);  // a press elsewhere cancels; one on the field starts it again below
    }
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
    ui->wheel_x = e->wheel.mouseX;
    ui->wheel_y = e->wheel.mouseY;
    return true;
  default:
    return false;
  }
}

void fbUi_Begin(fbUi *ui)
{
  ui->next_area_count = 0;
  ui->edit_seen = false;
}

void fbUi_End(fbUi *ui)
{
  if (!ui->down) {
    ui->active = 0;
  }
  if (ui->editing && !ui->edit_seen) {
    stop_editing(ui);  // its field was not drawn (scrolled away, panel closed): let go of the keys
  }
  ui->pressed = false;
  ui->wheel = 0;
  memcpy(ui->areas, ui->next_areas, sizeof ui->areas);
  ui->area_count = ui->next_area_count;
}

int fbUi_Wheel(const fbUi *ui, SDL_Rect r)
{
  SDL_Point at = {ui->wheel_x, ui->wheel_y};
  return SDL_PointInRect(&at, &r) ? ui->wheel : 0;
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

bool fbUi_Pressed(const fbUi *ui, SDL_Rect r) { return ui->pressed && inside(r, ui->mouse_x, ui->mouse_y); }

static void fill(fbUi *ui, SDL_Rect r, Uint8 red, Uint8 green, Uint8 blue, Uint8 alpha)
{
  SDL_SetRenderDrawBlendMode(ui->hud->sdl, SDL_BLENDMODE_BLEND);
  SDL_SetRenderDrawColor(ui->hud->sdl, red, green, blue, alpha);
  SDL_RenderFillRect(ui->hud->sdl, &r);
}

// Text centred vertically in r, from r.x + pad (or centred across when pad < 0).
// Text inside r, elided to fit it (pad < 0: centred).
static void text_in(fbUi *ui, SDL_Rect r, int pad, SDL_Color c, const char *text)
{
  char fitted[256];
  fbHud_Elide(ui->hud, text, r.w - 2 * abs(pad), fitted, sizeof fitted);
  int tw, th;
  fbHud_Measure(ui->hud, fitted, &tw, &th);
  fbUi_Label(ui, pad < 0 ? r.x + (r.w - tw) / 2 : r.x + pad, r.y + (r.h - th) / 2, c, fitted);
}

bool fbUi_Slider(fbUi *ui, int id, SDL_Rect r, const char *label, double *value, double lo, double hi, double step)
{
  if (fbUi_Pressed(ui, r)) {
    ui->active = id;
  }
  bool changed = false;
  if (ui->active == id && hi > lo) {
    double t = fmin(1.0, fmax(0.0, (ui->mouse_x - r.x) / (double)fmax(1, r.w - 1)));
    double v = lo + t * (hi - lo);
    if (step > 0) {
      v = fmin(hi, lo + round((v - lo) / step) * step);
    }
    changed = v != *value;
    *value = v;
  }
  fill(ui, r, 255, 255, 255, 28);
  double t = hi > lo ? fmin(1.0, fmax(0.0, (*value - lo) / (hi - lo))) : 0.0;
  fill(ui, (SDL_Rect){r.x, r.y, (int)(t * r.w), r.h}, 90, 150, 230, ui->active == id ? 200 : 140);
  text_in(ui, r, 6, TEXT, label);
  return changed;
}

fbUiEdit fbUi_Field(fbUi *ui, int id, SDL_Rect r, const char *shown, char *typed, size_t len)
{
  if (fbUi_Pressed(ui, r) && ui->editing != id) {
    ui->editing = id;
    ui->edit_state = FB_UI_EDITING;
    ui->edit_fresh = true;
    snprintf(ui->edit, sizeof ui->edit, "%s", shown);
    SDL_StartTextInput();
  }
  if (ui->editing != id) {
    fill(ui, r, 255, 255, 255, 18);
    text_in(ui, r, 4, TEXT, shown);
    return FB_UI_IDLE;
  }
  ui->edit_seen = true;
  if (ui->edit_state == FB_UI_APPLY) {
    snprintf(typed, len, "%s", ui->edit);
    stop_editing(ui);
    return FB_UI_APPLY;
  }
  // Being edited: lighter, outlined, with a caret after the text (the shown text highlighted until
  // the first key replaces it).
  fill(ui, r, 255, 255, 255, 60);
  SDL_SetRenderDrawColor(ui->hud->sdl, 120, 180, 255, 255);
  SDL_RenderDrawRect(ui->hud->sdl, &r);
  // A text wider than the field shows its end, where the caret is.
  const char *tail = ui->edit;
  int tw, th;
  fbHud_Measure(ui->hud, tail, &tw, &th);
  while (tw > r.w - 10 && tail[0] != '\0') {
    do {
      ++tail;
    } while ((*tail & 0xc0) == 0x80);  // whole UTF-8 characters
    fbHud_Measure(ui->hud, tail, &tw, &th);
  }
  if (ui->edit_fresh && tw > 0) {
    fill(ui, (SDL_Rect){r.x + 3, r.y + 2, tw + 2, r.h - 4}, 90, 150, 230, 200);
  }
  text_in(ui, r, 4, TEXT, tail);
  fill(ui, (SDL_Rect){r.x + 5 + tw, r.y + 3, 1, r.h - 6}, 255, 255, 255, 255);
  return FB_UI_EDITING;
}

bool fbUi_Check(fbUi *ui, SDL_Rect r, bool on, const char *text)
{
  bool hit = fbUi_Pressed(ui, r);
  bool hover = inside(r, ui->mouse_x, ui->mouse_y);
  fill(ui, r, 255, 255, 255, hover ? 40 : 18);
  int side = r.h - 6;
  SDL_Rect box = {r.x + 4, r.y + 3, side, side};
  fill(ui, box, 0, 0, 0, 90);
  SDL_SetRenderDrawColor(ui->hud->sdl, 200, 205, 215, 255);
  SDL_RenderDrawRect(ui->hud->sdl, &box);
  if (on) {
    fill(ui, (SDL_Rect){box.x + 3, box.y + 3, side - 6, side - 6}, 90, 150, 230, 255);
  }
  text_in(ui, (SDL_Rect){box.x + side, r.y, r.w - side - 4, r.h}, 5, TEXT, text);
  return hit;
}

bool fbUi_Button(fbUi *ui, SDL_Rect r, const char *text)
{
  bool hit = fbUi_Pressed(ui, r);
  bool hover = inside(r, ui->mouse_x, ui->mouse_y);
  fill(ui, r, 255, 255, 255, hit ? 90 : hover ? 50 : 25);
  text_in(ui, r, -1, TEXT, text);
  return hit;
}

/*
 * The thumb stands for the view: its height is track * view / content (at least 16 pixels, to be
 * grabbed), and its top moves over track - thumb pixels as the scroll goes from 0 to
 * content - view. Dragging keeps the point grabbed under the mouse.
 */
bool fbUi_Scrollbar(fbUi *ui, int id, SDL_Rect track, int content, int view, int *scroll)
{
  int range = content - view;
  if (range <= 0) {
    *scroll = 0;
    return false;
  }
  int thumb_h = (int)fmax(16, (double)track.h * view / content);
  int travel = track.h - thumb_h;
  int thumb_y = track.y + (int)((double)travel * *scroll / range);
  SDL_Rect thumb = {track.x, thumb_y, track.w, thumb_h};
  if (fbUi_Pressed(ui, track)) {
    ui->active = id;
    // On the thumb: keep where it was grabbed; on the track: the thumb's middle jumps to the mouse.
    ui->grab = fbUi_Pressed(ui, thumb) ? ui->mouse_y - thumb_y : thumb_h / 2;
  }
  int before = *scroll;
  if (ui->active == id && travel > 0) {
    double t = (double)(ui->mouse_y - ui->grab - track.y) / travel;
    *scroll = (int)lround(fmin(1.0, fmax(0.0, t)) * range);
    thumb.y = track.y + (int)((double)travel * *scroll / range);
  }
  fill(ui, track, 255, 255, 255, 20);
  fill(ui, thumb, 200, 205, 215, ui->active == id ? 220 : 150);
  return *scroll != before;
}
