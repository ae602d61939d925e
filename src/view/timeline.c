// timeline.c — the rewind timeline drawn as a bar of snapshots with the current step, and the step a click or drag on it asks for.
#include "timeline.h"

#include <math.h>

#define PAD 8
#define BAR_ID 0x7ffe0000  // the bar's widget id: apart from the parameter panel's rows and scrollbar

static const SDL_Color TEXT = {235, 235, 235, 255};
static const SDL_Color DIM = {170, 175, 185, 255};
static const SDL_Color AHEAD = {240, 200, 60, 255};  // snapshots kept after the current step, and the target

void fbTimeline_Span(const fbTimeline *t, uint64_t *first, uint64_t *last)
{
  const fbRewind *r = t->rewind;
  *first = r->count > 0 ? r->shots[0].step : t->now;
  *last = t->now;
  if (r->count > 0 && r->shots[r->count - 1].step > *last) {
    *last = r->shots[r->count - 1].step;
  }
  if (t->seeking && t->target > *last) {
    *last = t->target;
  }
  if (*first > *last) {
    *first = *last;
  }
}

SDL_Rect fbTimeline_Bar(SDL_Rect area, int line_h)
{
  int top = area.y + 4 + line_h + 2, h = area.y + area.h - 5 - top;
  return (SDL_Rect){area.x + PAD, top, area.w - 2 * PAD, h > 4 ? h : 4};
}

// The same mapping as fbUi_Slider's with a step of 1, so that a click asks for the step drawn there.
uint64_t fbTimeline_StepAt(const fbTimeline *t, SDL_Rect bar, int x)
{
  uint64_t first, last;
  fbTimeline_Span(t, &first, &last);
  double at = fmin(1.0, fmax(0.0, (x - bar.x) / fmax(1.0, bar.w - 1.0)));
  return first + (uint64_t)llround(at * (double)(last - first));
}

static int x_of(SDL_Rect bar, uint64_t first, uint64_t last, uint64_t step)
{
  double at = last > first ? (double)(step - first) / (double)(last - first) : 0.0;
  return bar.x + (int)lround(at * (bar.w - 1));
}

// The line above the bar: while stepping on, how far; under the mouse, what a click would do; else
// where the run is, what the ring holds and its budget.
static void describe(const fbTimeline *t, const fbUi *ui, SDL_Rect bar, char *out, size_t len)
{
  const fbRewind *r = t->rewind;
  SDL_Point mouse = {ui->mouse_x, ui->mouse_y};
  if (r->off || r->budget == 0) {
    snprintf(out, len, "step %llu · rewind off: %.400s", (unsigned long long)t->now,
             r->off ? r->why : "--rewind-mb 0 keeps no snapshots");
  } else if (t->seeking) {
    snprintf(out, len, "going to step %llu: %llu steps to go, with the rules as they are now",
             (unsigned long long)t->target, (unsigned long long)(t->target - t->now));
  } else if (SDL_PointInRect(&mouse, &bar) && ui->active != BAR_ID) {
    uint64_t step = fbTimeline_StepAt(t, bar, mouse.x);
    int k = fbRewind_Find(r, step);
    uint64_t from = k >= 0 ? r->shots[k].step : step;
    snprintf(out, len, "click: step %llu (the snapshot at %llu, then %llu steps on)", (unsigned long long)step,
             (unsigned long long)from, (unsigned long long)(step - from));
  } else {
    uint64_t first = r->count > 0 ? r->shots[0].step : 0, last = r->count > 0 ? r->shots[r->count - 1].step : 0;
    bool small = r->bytes < 1048576;  // kB until a megabyte, so a short run's ring does not read 0.0
    snprintf(out, len, "step %llu · %d snapshots %llu–%llu every %llu steps · %.*f %s of %.0f MB · "
             "Backspace back, Shift+Backspace forward", (unsigned long long)t->now, r->count,
             (unsigned long long)first, (unsigned long long)last, (unsigned long long)r->interval, small ? 0 : 1,
             small ? r->bytes / 1024.0 : r->bytes / 1048576.0, small ? "kB" : "MB", r->budget / 1048576.0);
  }
}

// A tick per snapshot (at most one per pixel column): those after the current step, kept since a
// rewind until the run goes on, in amber.
static void ticks(const fbTimeline *t, SDL_Renderer *sdl, SDL_Rect bar, uint64_t first, uint64_t last)
{
  int drawn = -1;
  for (int k = 0; k < t->rewind->count; ++k) {
    uint64_t step = t->rewind->shots[k].step;
    int x = x_of(bar, first, last, step);
    if (x == drawn) {
      continue;
    }
    drawn = x;
    SDL_Color c = step > t->now ? AHEAD : TEXT;
    SDL_SetRenderDrawColor(sdl, c.r, c.g, c.b, 230);
    SDL_RenderDrawLine(sdl, x, bar.y + bar.h / 3, x, bar.y + bar.h - 1);
  }
}

static void marker(SDL_Renderer *sdl, SDL_Rect bar, int x, SDL_Color c)
{
  SDL_SetRenderDrawColor(sdl, c.r, c.g, c.b, 255);
  SDL_RenderFillRect(sdl, &(SDL_Rect){x - 1, bar.y - 2, 3, bar.h + 4});
}

void fbTimeline_Draw(fbTimeline *t, fbUi *ui, SDL_Rect area)
{
  fbHud *hud = ui->hud;
  fbUi_Panel(ui, area);  // a panel: a press on it goes to the bar, not to the world
  SDL_RenderSetClipRect(hud->sdl, &area);
  SDL_Rect bar = fbTimeline_Bar(area, hud->line_h);
  uint64_t first, last;
  fbTimeline_Span(t, &first, &last);
  char text[FB_HUD_TEXT], fitted[FB_HUD_TEXT];
  describe(t, ui, bar, text, sizeof text);
  fbHud_Elide(hud, text, area.w - 2 * PAD, fitted, sizeof fitted);
  fbHud_Text(hud, area.x + PAD, area.y + 4, t->seeking ? AHEAD : DIM, 0, fitted, NULL, NULL);
  double value = (double)((t->seeking ? t->target : t->now) - first);
  if (fbUi_Slider(ui, BAR_ID, bar, "", &value, 0, (double)(last - first), 1)) {
    t->asked = true;
    t->ask = first + (uint64_t)llround(value);
  }
  ticks(t, hud->sdl, bar, first, last);
  if (t->seeking) {
    marker(hud->sdl, bar, x_of(bar, first, last, t->target), AHEAD);
  }
  marker(hud->sdl, bar, x_of(bar, first, last, t->now), TEXT);
  SDL_RenderSetClipRect(hud->sdl, NULL);
}
