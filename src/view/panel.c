// panel.c — the parameter panel (Tab): rule weights and parameters as sliders, and printing them as Lua.
#include "panel.h"

#include <math.h>
#include <string.h>

#define PAD 8
#define SLIDER_H 18
#define GAP 3

void fbPanel_Reset(fbParamPanel *p)
{
  p->ranged = false;
  p->slot_count = 0;
  p->content_h = 0;
  p->scroll = 0;
}

// 0..2x for a positive value, 2x..0 for a negative one, 0..1 for zero.
static void range_of(double v, double *lo, double *hi)
{
  *lo = v < 0 ? 2 * v : 0;
  *hi = v > 0 ? 2 * v : (v < 0 ? 0 : 1);
}

// A parameter's slider spans its declared range; where a bound is not declared, the guess above
// stands in for it, kept inside the bound that is.
static void param_range(const fbParamSpec *spec, double v, double *lo, double *hi)
{
  range_of(v, lo, hi);
  if (spec == NULL) {
    return;
  }
  double min = spec->min, max = spec->max;
  *lo = isfinite(min) ? min : (*lo < max ? *lo : max - 1);
  *hi = isfinite(max) ? max : (*hi > *lo ? *hi : *lo + 1);
}

static void take_ranges(fbParamPanel *p, fbSim *sim)
{
  const fbWorld *w = &sim->world;
  for (int s = 0; s < w->species_count; ++s) {
    for (int k = 0; k < w->species[s].rule_count; ++k) {
      range_of(w->species[s].rules[k].weight, &p->weight_lo[s][k], &p->weight_hi[s][k]);
      if (p->weight_hi[s][k] == 1 && p->weight_lo[s][k] == 0) {
        p->weight_hi[s][k] = 2;  // a weight of 0 or 0.5 may well want to go to 2
      }
      char names[FB_PANEL_MAX_PARAMS][FB_NAME_LEN];
      double values[FB_PANEL_MAX_PARAMS];
      int n = fbSim_ListParams(sim, s, k, names, values, FB_PANEL_MAX_PARAMS);
      for (int q = 0; q < n; ++q) {
        param_range(fbSim_ParamSpec(sim, s, k, names[q]), values[q], &p->lo[s][k][q], &p->hi[s][k][q]);
      }
    }
  }
  p->ranged = true;
}

// Lays one slider out at *y (content coordinates) if it is visible, and records where it went.
typedef struct Layout {
  fbParamPanel *p;
  fbUi *ui;
  SDL_Rect area;   // the panel on screen
  int y;           // next line, on screen
} Layout;

static bool visible(const Layout *l, int h) { return l->y + h > l->area.y && l->y < l->area.y + l->area.h; }

static bool slider(Layout *l, int species, int rule, int param, const char *label, double *v, double lo, double hi)
{
  SDL_Rect r = {l->area.x + PAD, l->y, l->area.w - 2 * PAD, SLIDER_H};
  bool changed = false;
  if (visible(l, SLIDER_H)) {
    int id = 1 + (species * FB_MAX_RULES + rule) * (FB_PANEL_MAX_PARAMS + 1) + param + 1;
    changed = fbUi_Slider(l->ui, id, r, label, v, lo, hi);
    if (l->p->slot_count < FB_PANEL_MAX_SLOTS) {
      l->p->slots[l->p->slot_count++] = (fbPanelSlot){r, species, rule, param};
    }
  }
  l->y += SLIDER_H + GAP;
  return changed;
}

static void label(Layout *l, int indent, SDL_Color c, const char *text)
{
  int h = l->ui->hud->line_h;
  if (visible(l, h)) {
    fbUi_Label(l->ui, l->area.x + PAD + indent, l->y, c, text);
  }
  l->y += h;
}

static void rule_sliders(Layout *l, fbSim *sim, int s, int k)
{
  fbRuleSlot *slot = &sim->world.species[s].rules[k];
  const char *name = fbSim_RuleName(sim, s, k), *module = fbSim_RuleModule(sim, s, k);
  char title[FB_NAME_LEN * 2 + 32];
  snprintf(title, sizeof title, "%s%s%s%s", name, strcmp(name, module) ? "  · " : "", strcmp(name, module) ? module : "",
           slot->disabled ? "  (switched off)" : "");
  label(l, 0, slot->disabled ? (SDL_Color){255, 110, 100, 255} : (SDL_Color){230, 230, 230, 255}, title);
  slider(l, s, k, -1, "weight", &slot->weight, l->p->weight_lo[s][k], l->p->weight_hi[s][k]);
  char names[FB_PANEL_MAX_PARAMS][FB_NAME_LEN];
  double values[FB_PANEL_MAX_PARAMS];
  int n = fbSim_ListParams(sim, s, k, names, values, FB_PANEL_MAX_PARAMS);
  for (int q = 0; q < n; ++q) {
    if (slider(l, s, k, q, names[q], &values[q], l->p->lo[s][k][q], l->p->hi[s][k][q])) {
      char msg[600];
      if (!fbSim_SetParam(sim, s, k, names[q], values[q], msg, sizeof msg)) {
        fprintf(stderr, "flockbox: %s\n", msg);  // the slider's range is the declared one
      }
    }
  }
  l->y += GAP;
}

void fbPanel_Draw(fbParamPanel *p, fbUi *ui, fbSim *sim, SDL_Rect area)
{
  if (!p->ranged) {
    take_ranges(p, sim);
  }
  fbUi_Panel(ui, area);
  p->scroll -= ui->wheel * 3 * SLIDER_H;
  p->scroll = (int)fmax(0, fmin(p->scroll, p->content_h - area.h + PAD));
  p->slot_count = 0;
  SDL_RenderSetClipRect(ui->hud->sdl, &area);
  Layout l = {p, ui, area, area.y + PAD - p->scroll};
  label(&l, 0, (SDL_Color){170, 175, 185, 255}, "Drag to change · C prints them as Lua");
  l.y += GAP;
  const fbWorld *w = &sim->world;
  for (int s = 0; s < w->species_count; ++s) {
    const fbSpecies *sp = &w->species[s];
    char title[FB_NAME_LEN + 48];
    snprintf(title, sizeof title, "%s  (%s)", sp->name, fbAccum_KindName(sp->accumulator));
    SDL_Color colour = sp->player ? (SDL_Color){0, 255, 0, 255}
                                  : (SDL_Color){sp->colour[0], sp->colour[1], sp->colour[2], 255};
    label(&l, 0, colour, title);
    for (int k = 0; k < sp->rule_count; ++k) {
      rule_sliders(&l, sim, s, k);
    }
  }
  p->content_h = l.y + p->scroll - area.y;
  SDL_RenderSetClipRect(ui->hud->sdl, NULL);
}

// ---- printing as Lua ----------------------------------------------------------------------------

void fbPanel_PrintLua(const fbSim *sim, FILE *out)
{
  const fbWorld *w = &sim->world;
  fprintf(out, "-- %s: rule weights and parameters at step %llu (paste over each species' rules)\n", sim->name,
          (unsigned long long)w->step);
  for (int s = 0; s < w->species_count; ++s) {
    const fbSpecies *sp = &w->species[s];
    fprintf(out, "-- species \"%s\"\nrules = {\n", sp->name);
    for (int k = 0; k < sp->rule_count; ++k) {
      const fbRuleSlot *slot = &sp->rules[k];
      const char *name = fbSim_RuleName(sim, s, k), *module = fbSim_RuleModule(sim, s, k);
      fprintf(out, "  { \"%s\"", module);
      if (strcmp(name, module) != 0) {
        fprintf(out, ", name = \"%s\"", name);
      }
      fprintf(out, ", weight = %.9g", slot->weight);
      if (slot->force) {
        fputs(", force = true", out);
      }
      if (slot->drag) {
        fputs(", drag = true", out);
      }
      if (slot->preempt) {
        fputs(", preempt = true", out);
      }
      fputs(", params = ", out);
      fbSim_WriteParams(sim, s, k, out);
      fputs(" },\n", out);
    }
    fputs("},\n", out);
  }
  fflush(out);
}
