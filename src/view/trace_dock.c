// trace_dock.c — the trace dock: one step of the selected agent traced into lines, drawn clipped and scrolled.
#include "trace_dock.h"

#include <stdlib.h>
#include <string.h>

#include "memory.h"

void fbTraceDock_Init(fbTraceDock *d) { memset(d, 0, sizeof *d); }

static void forget_lines(fbTraceDock *d)
{
  for (int k = 0; k < d->line_count; ++k) {
    free(d->lines[k]);
  }
  d->line_count = 0;
  d->dropped = 0;
  d->scroll = 0;
}

void fbTraceDock_Free(fbTraceDock *d)
{
  forget_lines(d);
  free(d->lines);
  memset(d, 0, sizeof *d);
}

void fbTraceDock_Ask(fbTraceDock *d) { d->asked = true; }

static void add_line(fbTraceDock *d, const char *text, size_t n)
{
  if (d->line_count >= FB_TRACE_DOCK_MAX_LINES) {
    d->dropped++;
    return;
  }
  if (d->line_count == d->line_cap) {
    d->line_cap = d->line_cap ? 2 * d->line_cap : 64;
    d->lines = fbMemory_Grow(d->lines, sizeof *d->lines, (size_t)d->line_cap);
  }
  char *line = fbMemory_Grow(NULL, 1, n + 1);
  memcpy(line, text, n);
  line[n] = '\0';
  d->lines[d->line_count++] = line;
}

// The trace's writer (fbSim_Trace): a call is a line ending in a newline; split on newlines anyway,
// so that a text of several lines shows as several.
static void write_trace(const char *text, void *ud)
{
  fbTraceDock *d = ud;
  while (*text != '\0') {
    const char *end = strchr(text, '\n');
    size_t n = end ? (size_t)(end - text) : strlen(text);
    add_line(d, text, n);
    text += end ? n + 1 : n;
  }
}

void fbTraceDock_BeforeStep(fbTraceDock *d, fbSim *sim, bool open, uint32_t selected)
{
  if (!open || selected == 0 || (!d->asked && d->agent == selected)) {
    return;
  }
  forget_lines(d);
  d->asked = false;
  d->agent = selected;
  d->step = fbSim_World(sim)->step;
  d->tracing = true;
  fbSim_Trace(sim, write_trace, d);
}

void fbTraceDock_AfterStep(fbTraceDock *d, fbSim *sim)
{
  if (d->tracing) {
    fbSim_Trace(sim, NULL, NULL);
    d->tracing = false;
  }
}

bool fbTraceDock_Key(fbTraceDock *d, const SDL_Event *e)
{
  if (e->type != SDL_KEYDOWN) {
    return false;
  }
  switch (e->key.keysym.sym) {  // kept in range when it is next drawn
  case SDLK_PAGEUP: d->scroll -= d->page; break;
  case SDLK_PAGEDOWN: d->scroll += d->page; break;
  default: return false;
  }
  return true;
}

// The header line: whose trace the lines are, and how to get the next one.
static void header(const fbTraceDock *d, uint32_t selected, char *text, size_t len)
{
  if (d->agent != selected || (d->line_count == 0 && d->dropped == 0)) {
    snprintf(text, len, "agent %u: its next step will be traced ('.' steps one)", (unsigned)selected);
    return;
  }
  snprintf(text, len, "agent %u, the step from %llu: %d lines%s ('.' traces the next step; wheel, Page Up/Down scroll)",
           (unsigned)d->agent, (unsigned long long)d->step, d->line_count, d->dropped ? " and more" : "");
}

/*
 * A header, then the lines from d->scroll as many as fit, each on one line of its own (a long one
 * is cut at the dock's edge: the trace is read line by line, as its columns line up). The scroll is
 * kept within [0, lines - page] so that the last page stays full.
 */
void fbTraceDock_Draw(fbTraceDock *d, fbHud *hud, fbUi *ui, SDL_Rect area, uint32_t selected)
{
  fbUi_Panel(ui, area);
  SDL_RenderSetClipRect(hud->sdl, &area);
  const int pad = 6, line_h = hud->line_h > 0 ? hud->line_h : 16;
  int y = area.y + 4;
  if (selected == 0) {
    fbHud_Text(hud, area.x + pad, y, (SDL_Color){170, 175, 185, 255}, area.w - 2 * pad,
               "Click an agent to trace it: its next step's rules, line by line, with the locals each line "
               "assigned and how the combiner weighed them. '.' steps once and traces that step.",
               NULL, NULL);
    SDL_RenderSetClipRect(hud->sdl, NULL);
    return;
  }
  char text[256];
  header(d, selected, text, sizeof text);
  fbHud_Text(hud, area.x + pad, y, (SDL_Color){235, 235, 235, 255}, 0, text, NULL, NULL);
  y += line_h + 2;
  const int page = (area.y + area.h - y) / line_h;
  d->page = page > 1 ? page - 1 : 1;  // Page Up/Down keep a line of the page before in view
  d->scroll -= fbUi_Wheel(ui, area) * 3;
  const int shown = d->agent == selected ? d->line_count : 0;  // another agent's lines are not its
  const int top = shown > page ? shown - page : 0;
  d->scroll = d->scroll < 0 ? 0 : d->scroll > top ? top : d->scroll;
  for (int k = d->scroll; k < shown && y < area.y + area.h; ++k, y += line_h) {
    const char *line = d->lines[k];
    bool rule = strncmp(line, "rule ", 5) == 0 || strncmp(line, "combined", 8) == 0;
    SDL_Color c = rule ? (SDL_Color){240, 200, 60, 255} : (SDL_Color){205, 208, 215, 255};
    fbHud_Text(hud, area.x + pad, y, c, 0, line, NULL, NULL);
  }
  if (top > 0) {  // a thin bar at the right edge: which part is in view
    const int h = area.h * page / shown;
    SDL_SetRenderDrawColor(hud->sdl, 255, 255, 255, 70);
    SDL_RenderFillRect(hud->sdl, &(SDL_Rect){area.x + area.w - 4, area.y + (area.h - h) * d->scroll / top, 3, h});
  }
  SDL_RenderSetClipRect(hud->sdl, NULL);
}
