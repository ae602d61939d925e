// panel.c — the parameter panel (Tab): rule weights and parameters as sliders, and printing them as Lua.
#include "panel.h"

#include <lauxlib.h>
#include <string.h>

#define PANEL_W 340
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
      int n = fbRules_ListParams(&sim->runners[0], s, k, names, values, FB_PANEL_MAX_PARAMS);
      for (int q = 0; q < n; ++q) {
        range_of(values[q], &p->lo[s][k][q], &p->hi[s][k][q]);
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
  char title[FB_NAME_LEN * 2 + 32];
  snprintf(title, sizeof title, "%s%s%s%s", slot->name, strcmp(slot->name, slot->module) ? "  · " : "",
           strcmp(slot->name, slot->module) ? slot->module : "", slot->disabled ? "  (switched off)" : "");
  label(l, 0, slot->disabled ? (SDL_Color){255, 110, 100, 255} : (SDL_Color){230, 230, 230, 255}, title);
  slider(l, s, k, -1, "weight", &slot->weight, l->p->weight_lo[s][k], l->p->weight_hi[s][k]);
  char names[FB_PANEL_MAX_PARAMS][FB_NAME_LEN];
  double values[FB_PANEL_MAX_PARAMS];
  int n = fbRules_ListParams(&sim->runners[0], s, k, names, values, FB_PANEL_MAX_PARAMS);
  for (int q = 0; q < n; ++q) {
    if (slider(l, s, k, q, names[q], &values[q], l->p->lo[s][k][q], l->p->hi[s][k][q])) {
      for (int t = 0; t < sim->threads; ++t) {  // every worker's Lua state holds its own copy
        fbRules_SetParam(&sim->runners[t], s, k, names[q], values[q]);
      }
    }
  }
  l->y += GAP;
}

void fbPanel_Draw(fbParamPanel *p, fbUi *ui, fbSim *sim, int view_w, int view_h)
{
  if (!p->ranged) {
    take_ranges(p, sim);
  }
  // As tall as last frame's content, at most the window: short lists leave the world visible.
  int full = view_h - 2 * PAD;
  int height = p->content_h > 0 ? (int)fmin(full, p->content_h + PAD) : full;
  SDL_Rect area = {view_w - PANEL_W - PAD, PAD, PANEL_W, height};
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

static bool is_identifier(const char *s)
{
  if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))) {
    return false;
  }
  for (; *s; ++s) {
    if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9'))) {
      return false;
    }
  }
  return true;
}

static void print_string(FILE *out, const char *s)
{
  fputc('"', out);
  for (; *s; ++s) {
    if (*s == '"' || *s == '\\') {
      fputc('\\', out);
    }
    if (*s == '\n') {
      fputs("\\n", out);
    } else {
      fputc(*s, out);
    }
  }
  fputc('"', out);
}

static int compare_keys(const void *a, const void *b) { return strcmp(a, b); }

static void print_value(lua_State *L, int idx, FILE *out, int depth);

// A table's entries: its list part first, then the named ones sorted (table order is not stable).
static void print_table(lua_State *L, int idx, FILE *out, int depth)
{
  idx = lua_absindex(L, idx);
  fputs("{ ", out);
  lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
  for (lua_Integer k = 1; k <= n; ++k) {
    lua_rawgeti(L, idx, k);
    print_value(L, -1, out, depth + 1);
    lua_pop(L, 1);
    fputs(", ", out);
  }
  char keys[64][FB_NAME_LEN];
  int count = 0;
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    if (lua_type(L, -2) == LUA_TSTRING && count < 64 && lua_rawlen(L, -2) < FB_NAME_LEN) {
      snprintf(keys[count++], FB_NAME_LEN, "%s", lua_tostring(L, -2));
    }
    lua_pop(L, 1);
  }
  qsort(keys, (size_t)count, FB_NAME_LEN, compare_keys);
  for (int k = 0; k < count; ++k) {
    if (is_identifier(keys[k])) {
      fprintf(out, "%s = ", keys[k]);
    } else {
      fputc('[', out);
      print_string(out, keys[k]);
      fputs("] = ", out);
    }
    lua_getfield(L, idx, keys[k]);
    print_value(L, -1, out, depth + 1);
    lua_pop(L, 1);
    fputs(k + 1 < count ? ", " : " ", out);
  }
  fputc('}', out);
}

static void print_value(lua_State *L, int idx, FILE *out, int depth)
{
  switch (lua_type(L, idx)) {
  case LUA_TNUMBER:
    if (lua_isinteger(L, idx)) {
      fprintf(out, "%lld", (long long)lua_tointeger(L, idx));
    } else {
      fprintf(out, "%.9g", lua_tonumber(L, idx));
    }
    break;
  case LUA_TBOOLEAN: fputs(lua_toboolean(L, idx) ? "true" : "false", out); break;
  case LUA_TSTRING: print_string(out, lua_tostring(L, idx)); break;
  case LUA_TTABLE:
    if (depth < 8) {
      print_table(L, idx, out, depth);
      break;
    }
    /* fall through */
  default: fputs("nil", out); break;
  }
}

void fbPanel_PrintLua(const fbSim *sim, FILE *out)
{
  const fbWorld *w = &sim->world;
  lua_State *L = sim->runners[0].host.L;
  fprintf(out, "-- %s: rule weights and parameters at step %llu (paste over each species' rules)\n", sim->name,
          (unsigned long long)w->step);
  for (int s = 0; s < w->species_count; ++s) {
    const fbSpecies *sp = &w->species[s];
    fprintf(out, "-- species \"%s\"\nrules = {\n", sp->name);
    for (int k = 0; k < sp->rule_count; ++k) {
      const fbRuleSlot *slot = &sp->rules[k];
      fprintf(out, "  { \"%s\"", slot->module);
      if (strcmp(slot->name, slot->module) != 0) {
        fprintf(out, ", name = \"%s\"", slot->name);
      }
      fprintf(out, ", weight = %.9g", slot->weight);
      if (slot->force) {
        fputs(", force = true", out);
      }
      lua_rawgeti(L, LUA_REGISTRYINDEX, sim->runners[0].params_ref[s][k]);
      if (lua_istable(L, -1) && (lua_pushnil(L), lua_next(L, -2) != 0)) {
        lua_pop(L, 2);
        fputs(", params = ", out);
        print_table(L, -1, out, 0);
      }
      lua_pop(L, 1);
      fputs(" },\n", out);
    }
    fputs("},\n", out);
  }
  fflush(out);
}
