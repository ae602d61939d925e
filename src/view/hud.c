// hud.c — text (font.h) with a per-line texture cache, the status panel, the inspector and key help.
#include "hud.h"

#include <stdarg.h>
#include <string.h>

#include "accumulate.h"
#include "fb_math.h"
#include "render.h"

static const SDL_Color TEXT = {235, 235, 235, 255};
static const SDL_Color DIM = {170, 175, 185, 255};
static const SDL_Color ERROR = {255, 110, 100, 255};
static const SDL_Color GOOD = {140, 230, 140, 255};

#define PAD 8

bool fbHud_Init(fbHud *hud, SDL_Renderer *sdl, const char *font_path, int size, char *err, size_t errlen)
{
  memset(hud, 0, sizeof *hud);
  hud->sdl = sdl;
  hud->line_h = size + 4;
  hud->font = fbFont_Open(font_path, size, err, errlen);
  if (hud->font == NULL) {
    size_t used = strlen(err);
    snprintf(err + used, errlen - used, " (install fonts-dejavu-core)");
    return false;
  }
  hud->line_h = fbFont_LineSkip(hud->font);
  return true;
}

void fbHud_Free(fbHud *hud)
{
  for (int k = 0; k < FB_HUD_CACHE; ++k) {
    if (hud->cache[k].texture != NULL) {
      SDL_DestroyTexture(hud->cache[k].texture);
    }
  }
  fbFont_Close(hud->font);
  memset(hud, 0, sizeof *hud);
}

void fbHud_Begin(fbHud *hud)
{
  hud->frame++;
  for (int k = 0; k < FB_HUD_CACHE; ++k) {
    fbHudLine *l = &hud->cache[k];
    if (l->texture != NULL && hud->frame - l->used > 120) {
      SDL_DestroyTexture(l->texture);
      l->texture = NULL;
    }
  }
}

static bool same_colour(SDL_Color a, SDL_Color b) { return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a; }

// The cached line for this text, rendering it into the least recently used slot on a miss.
static fbHudLine *cached(fbHud *hud, SDL_Color c, int wrap, const char *text)
{
  fbHudLine *oldest = NULL;
  for (int k = 0; k < FB_HUD_CACHE; ++k) {
    fbHudLine *l = &hud->cache[k];
    if (l->texture != NULL && l->wrap == wrap && same_colour(l->colour, c) && strcmp(l->text, text) == 0) {
      return l;
    }
    bool free_slot = l->texture == NULL, oldest_free = oldest != NULL && oldest->texture == NULL;
    if (oldest == NULL || (free_slot && !oldest_free) || (!free_slot && !oldest_free && l->used < oldest->used)) {
      oldest = l;
    }
  }
  SDL_Surface *s = fbFont_Render(hud->font, text, c, wrap);
  if (s == NULL) {
    return NULL;
  }
  if (oldest->texture != NULL) {
    SDL_DestroyTexture(oldest->texture);
  }
  oldest->texture = SDL_CreateTextureFromSurface(hud->sdl, s);
  oldest->w = s->w;
  oldest->h = s->h;
  SDL_FreeSurface(s);
  snprintf(oldest->text, sizeof oldest->text, "%s", text);
  oldest->colour = c;
  oldest->wrap = wrap;
  return oldest->texture ? oldest : NULL;
}

void fbHud_Text(fbHud *hud, int x, int y, SDL_Color c, int wrap, const char *text, int *w, int *h)
{
  int tw = 0, th = 0;
  if (hud->font != NULL && text[0] != '\0') {
    fbHudLine *l = cached(hud, c, wrap, text);
    if (l != NULL) {
      l->used = hud->frame;
      tw = l->w;
      th = l->h;
      SDL_Rect dst = {x, y, tw, th};
      SDL_RenderCopy(hud->sdl, l->texture, NULL, &dst);
    }
  }
  if (w != NULL) {
    *w = tw;
  }
  if (h != NULL) {
    *h = th ? th : hud->line_h;
  }
}

void fbHud_Measure(fbHud *hud, const char *text, int *w, int *h)
{
  *w = 0;
  *h = hud->line_h;
  if (hud->font != NULL) {
    *w = fbFont_MeasureLine(hud->font, text);
    *h = fbFont_Height(hud->font);
  }
}

/*
 * Text cut to fit max_w pixels with "…" in place of what is left out. The cut goes back to the
 * last space when one is in the second half of what fits (so a word is not cut in two where a
 * whole word can go), else falls between two characters (one long word); never inside a UTF-8
 * character. Widths are measured with the font: a prefix fits when it and the ellipsis do.
 */
void fbHud_Elide(fbHud *hud, const char *text, int max_w, char *out, size_t len)
{
  static const char ELLIPSIS[] = "\xe2\x80\xa6";
  int w, h;
  snprintf(out, len, "%s", text);
  fbHud_Measure(hud, out, &w, &h);
  if (w <= max_w || hud->font == NULL) {
    return;
  }
  size_t n = strlen(out), fits = 0;
  for (size_t k = 1; k <= n; ++k) {  // the longest prefix ending on a character boundary that fits
    if (k < n && ((unsigned char)out[k] & 0xC0) == 0x80) {
      continue;
    }
    char trial[512];
    snprintf(trial, sizeof trial, "%.*s%s", (int)k, text, ELLIPSIS);
    fbHud_Measure(hud, trial, &w, &h);
    if (w > max_w) {
      break;
    }
    fits = k;
  }
  size_t cut = fits;
  while (cut > fits / 2 && text[cut - 1] != ' ') {
    --cut;
  }
  cut = cut > fits / 2 ? cut - 1 : fits;  // at the space (dropped), or mid-word when there is none
  snprintf(out, len, "%.*s%s", (int)cut, text, ELLIPSIS);
}

void fbHud_TextFitted(fbHud *hud, int x, int y, SDL_Color c, int max_w, const char *text, int *h)
{
  char fitted[FB_HUD_TEXT];
  fbHud_Elide(hud, text, max_w, fitted, sizeof fitted);
  fbHud_Text(hud, x, y, c, 0, fitted, NULL, h);
}

void fbHud_Box(fbHud *hud, SDL_Rect r)
{
  SDL_SetRenderDrawBlendMode(hud->sdl, SDL_BLENDMODE_BLEND);
  SDL_SetRenderDrawColor(hud->sdl, 12, 14, 18, 190);
  SDL_RenderFillRect(hud->sdl, &r);
}

SDL_Rect fbHud_Dialog(fbHud *hud, int window_w, int window_h, int w, int h)
{
  w = w < window_w - 4 * PAD ? w : window_w - 4 * PAD;
  h = h < window_h - 4 * PAD ? h : window_h - 4 * PAD;
  SDL_Rect box = {(window_w - w) / 2, (window_h - h) / 2, w, h};
  SDL_SetRenderDrawBlendMode(hud->sdl, SDL_BLENDMODE_BLEND);
  SDL_SetRenderDrawColor(hud->sdl, 10, 12, 16, 255);  // opaque: the panels' text must not show through
  SDL_RenderFillRect(hud->sdl, &box);
  SDL_SetRenderDrawColor(hud->sdl, 120, 130, 150, 255);
  SDL_RenderDrawRect(hud->sdl, &box);
  SDL_RenderSetClipRect(hud->sdl, &box);
  return box;
}

// ---- colours and numbers ------------------------------------------------------------------------

/*
 * Text on the dark panels needs a light colour. Relative luminance (ITU-R BT.709 weights,
 * Y = 0.2126 R + 0.7152 G + 0.0722 B) below 165 of 255 is raised by mixing the colour with white
 * until it reaches 165: a dark red stays red, only lighter (the player's green is light already).
 */
SDL_Color fbHud_SpeciesColour(const fbSpecies *sp)
{
  SDL_Color c = fbRender_SpeciesColour(sp);
  double r = c.r, g = c.g, b = c.b;
  double y = 0.2126 * r + 0.7152 * g + 0.0722 * b, target = 165;
  double t = y < target ? (target - y) / (255 - y) : 0;
  return (SDL_Color){(uint8_t)(r + (255 - r) * t), (uint8_t)(g + (255 - g) * t), (uint8_t)(b + (255 - b) * t), 255};
}

void fbHud_Number(char *out, size_t len, const char *fmt, double v)
{
  snprintf(out, len, fmt, v);
  if (out[0] == '-' && strspn(out + 1, "0.") == strlen(out + 1)) {
    memmove(out, out + 1, strlen(out));  // "-0", "-0.00": the sign of something that rounds to zero
  }
}

// ---- the status ---------------------------------------------------------------------------------

// Lines are laid out top to bottom inside a dock, wrapped at its width.
typedef struct Column {
  fbHud *hud;
  int x, y, top, width, bottom;
} Column;

static void line(Column *c, SDL_Color colour, const char *text)
{
  int h;
  fbHud_Text(c->hud, c->x, c->y, colour, c->width, text, NULL, &h);
  c->y += h;
}

static void linef(Column *c, SDL_Color colour, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void linef(Column *c, SDL_Color colour, const char *fmt, ...)
{
  char text[FB_HUD_TEXT];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  line(c, colour, text);
}

// One line of text from x to the column's right edge, "…" where it would go past it.
static int fitted_line(Column *c, int x, SDL_Color colour, const char *text)
{
  int h;
  fbHud_TextFitted(c->hud, x, c->y, colour, c->x + c->width - x, text, &h);
  return h;
}

// Items ("name value") flowed along lines: an item is never cut in the middle, unless it is wider
// than the whole column (it ends in "…" there).
static void flow(Column *c, SDL_Color colour, const char *const *items, int n)
{
  int x = c->x, h = c->hud->line_h;
  for (int k = 0; k < n; ++k) {
    int w;
    fbHud_Measure(c->hud, items[k], &w, &h);
    if (x > c->x && x + w > c->x + c->width) {
      x = c->x;
      c->y += h;
    }
    fitted_line(c, x, colour, items[k]);
    x += w + 18;
  }
  if (n > 0) {
    c->y += h;
  }
}

// An error for the HUD: its first few lines (the message and the top of the traceback).
static void error_line(Column *c, const char *who, const char *message)
{
  char text[FB_HUD_TEXT];
  int n = snprintf(text, sizeof text, "%s%s", who, message);
  int lines = 0;
  for (int k = 0; k < n && k < (int)sizeof text; ++k) {
    if (text[k] == '\n' && ++lines == 3) {
      text[k] = '\0';
      break;
    }
    if (text[k] == '\t') {
      text[k] = ' ';
    }
  }
  line(c, ERROR, text);
}

static void swatch(Column *c, SDL_Color col)
{
  SDL_SetRenderDrawColor(c->hud->sdl, col.r, col.g, col.b, 255);
  int box = c->hud->line_h / 2;
  SDL_RenderFillRect(c->hud->sdl, &(SDL_Rect){c->x, c->y + box / 2 + 1, box, box});
}

// The legend: each species in the colour it is drawn in, with its count and role; leaders (agents
// whose field `leader` is set) are drawn red whatever their species.
static void species_lines(Column *c, const fbSim *sim)
{
  const fbWorld *w = fbSim_World(sim);
  int counts[FB_MAX_SPECIES] = {0};
  for (int i = 0; i < w->agents.count; ++i) {
    counts[w->agents.species[i]]++;
  }
  int leader = fbWorld_FindField(w, "leader");
  for (int s = 0; s < w->species_count; ++s) {
    const fbSpecies *sp = &w->species[s];
    swatch(c, fbRender_SpeciesColour(sp));
    char text[FB_HUD_TEXT];
    snprintf(text, sizeof text, "%s  %d  · %s%s", sp->name, counts[s], fbAccum_KindName(sp->accumulator),
             sp->player ? "  · you steer it: arrow keys" : "");
    c->y += fitted_line(c, c->x + c->hud->line_h / 2 + 6, fbHud_SpeciesColour(sp), text);
  }
  if (leader >= 0) {
    swatch(c, (SDL_Color){255, 0, 0, 255});
    c->y += fitted_line(c, c->x + c->hud->line_h / 2 + 6, TEXT, "leader (field leader set), any species");
  }
}

// The scenario's metrics as in its CSV columns, and catches (a:remove) unless a metric reports them.
static void metric_lines(Column *c, const fbSim *sim, const fbHudStatus *st)
{
  char texts[FB_MAX_METRICS + 1][FB_NAME_LEN + 32];
  const char *items[FB_MAX_METRICS + 1];
  int n = 0;
  bool catches_metric = false;
  for (int m = 0; st->metrics != NULL && m < fbSim_MetricCount(sim); ++m) {
    char value[32];
    fbHud_Number(value, sizeof value, "%.4g", st->metrics[m]);
    snprintf(texts[n], sizeof texts[n], "%s %s", fbSim_MetricName(sim, m), value);
    items[n] = texts[n];
    n++;
    catches_metric = catches_metric || strcmp(fbSim_MetricName(sim, m), "catches") == 0;
  }
  if (fbSim_Catches(sim) > 0 && !catches_metric) {
    snprintf(texts[n], sizeof texts[n], "catches %llu", (unsigned long long)fbSim_Catches(sim));
    items[n] = texts[n];
    n++;
  }
  flow(c, DIM, items, n);
}

static void error_lines(Column *c, const fbSim *sim, const fbHudStatus *st)
{
  const fbWorld *w = fbSim_World(sim);
  for (int s = 0; s < w->species_count; ++s) {
    for (int k = 0; k < w->species[s].rule_count; ++k) {
      const char *error = fbSim_RuleError(sim, s, k);
      if (error[0] != '\0') {  // switched off, or a bad save while the last good version runs
        char who[160];
        snprintf(who, sizeof who, "%s/%s %s: ", w->species[s].name, fbSim_RuleName(sim, s, k),
                 w->species[s].rules[k].disabled ? "switched off" : "keeps its last good version");
        error_line(c, who, error);
      }
    }
  }
  if (st->scenario_failed && fbSim_Error(sim)[0] != '\0') {
    error_line(c, "scenario: ", fbSim_Error(sim));
  }
  if (fbSim_ReloadError(sim)[0] != '\0') {
    error_line(c, "scenario save not applied: ", fbSim_ReloadError(sim));
  }
}

static void state_lines(Column *c, const fbSim *sim, const fbHudStatus *st)
{
  const char *state = st->finished ? "finished (--steps)" : st->paused ? "paused" : "running";
  double when = 0;
  const char *outcome = fbSim_Outcome(sim, &when);
  line(c, TEXT, fbSim_Name(sim));
  if (outcome != NULL) {
    linef(c, GOOD, "%s · outcome %s at %.2f s", state, outcome, when);
  } else {
    linef(c, st->paused ? GOOD : DIM, "%s", state);
  }
  const char *rates[3];
  char texts[3][96];
  snprintf(texts[0], sizeof texts[0], "step %llu  t %.2f s", (unsigned long long)fbSim_World(sim)->step,
           fbSim_World(sim)->step * fbSim_World(sim)->dt);
  snprintf(texts[1], sizeof texts[1], "seed %llu", (unsigned long long)fbSim_World(sim)->seed);
  snprintf(texts[2], sizeof texts[2], "speed ×%g (%.3g steps/frame)", st->time_scale, st->steps_per_frame);
  for (int k = 0; k < 3; ++k) {
    rates[k] = texts[k];
  }
  flow(c, DIM, rates, 3);
  const fbStepCost *k = &st->cost;
  char cost[5][64];
  const char *costs[5] = {cost[0], cost[1], cost[2], cost[3], cost[4]};
  snprintf(cost[0], sizeof cost[0], "%.0f steps/s  %.0f frames/s", st->steps_per_s, st->frames_per_s);
  snprintf(cost[1], sizeof cost[1], "grid %.2f ms", k->grid_ms);
  snprintf(cost[2], sizeof cost[2], "rules %.2f ms", k->rules_ms);
  snprintf(cost[3], sizeof cost[3], "integration %.2f ms", k->integrate_ms);
  snprintf(cost[4], sizeof cost[4], "hooks %.2f ms", k->hooks_ms);
  flow(c, DIM, costs, 5);
}

// The costliest parts of a step, from the per-rule profile: which rule is slow, at a glance. Its
// times are CPU time summed over the threads (profile.h): "rules N ms" above is the wall time of
// the rule phase, about the perception, view and rule lines' CPU divided by the threads.
static void profile_lines(Column *c, const fbHudStatus *st)
{
  enum { SHOWN = 6 };
  if (st->profile_rows == 0) {
    return;
  }
  linef(c, DIM, "µs/agent-step, share (step: %.2f ms CPU)", fbProfile_StepMs(st->profile, st->profile_rows));
  for (int k = 0; k < st->profile_rows && k < SHOWN; ++k) {
    const fbProfileRow *r = &st->profile[k];
    linef(c, k == 0 ? TEXT : DIM, "  %s%s%s  %.2f  %.0f%%", r->species, r->species[0] ? " " : "", r->part,
          r->us_per_agent_step, 100.0 * r->share);
  }
}

SDL_Rect fbHud_Status(fbHud *hud, const fbSim *sim, const fbHudStatus *st, SDL_Rect area)
{
  Column c = {hud, area.x + PAD, area.y + PAD, area.y + PAD, area.w - 2 * PAD, area.y + area.h};
  if (sim == NULL) {
    line(&c, TEXT, "no scenario running");
    error_line(&c, "", st->load_error ? st->load_error : "");
    line(&c, DIM, "fix the file and press R to load it again, or O to open another");
  } else {
    state_lines(&c, sim, st);
    profile_lines(&c, st);
    c.y += PAD / 2;
    species_lines(&c, sim);
    metric_lines(&c, sim, st);
    if (st->drawing != NULL) {
      line(&c, DIM, st->drawing);
    }
    if (st->following_flock || st->following_agent) {
      line(&c, GOOD, st->following_flock ? "following the flock centre (F)" : "following the selected agent (Shift+F)");
    }
    error_lines(&c, sim, st);
  }
  if (st->notice != NULL) {
    line(&c, GOOD, st->notice);
  }
  return (SDL_Rect){area.x, area.y, area.w, c.y - area.y + PAD};
}

// ---- the inspector ------------------------------------------------------------------------------

// The agent's ORCA problem in words, beside its drawing (render.c): what constrains it and what it chose.
static void orca_lines(Column *c, const fbSim *sim, int i)
{
  const fbOrcaPlan *plan = fbSim_OrcaPlan(sim, fbSim_World(sim)->agents.id[i]);
  if (plan == NULL) {
    return;
  }
  linef(c, TEXT, "ORCA: %d agent and %d obstacle half-planes%s", plan->count - plan->obstacle_count,
        plan->obstacle_count, plan->fallback ? ", none common: least violation" : "");
  char want[64], chose[64];
  fbHud_Number(want, sizeof want, "%.3g", fbV_Length(plan->preferred));
  fbHud_Number(chose, sizeof chose, "%.3g", fbV_Length(plan->chosen));
  linef(c, DIM, "yellow: preferred velocity %s u/s · green: chosen %s u/s · hatched: forbidden side", want, chose);
}

static void rule_lines(Column *c, const fbSim *sim, int i, double px_per_accel)
{
  const fbSpecies *s = &fbSim_World(sim)->species[fbSim_World(sim)->agents.species[i]];
  fbVec2 parts[FB_MAX_RULES];
  bool ran[FB_MAX_RULES], truncated;
  fbRender_Contributions(sim, i, parts, ran, &truncated);
  bool any = false;
  for (int k = 0; k < s->rule_count; ++k) {
    const fbRuleSlot *slot = &s->rules[k];
    any = any || ran[k];
    swatch(c, fbRender_RuleColour(k));
    char text[FB_HUD_TEXT], size[32];
    const char *name = fbSim_RuleName(sim, fbSim_World(sim)->agents.species[i], k);
    fbHud_Number(size, sizeof size, "%.3g", fbV_Length(parts[k]));
    const char *kind = slot->force ? "  force" : slot->drag ? "  drag" : slot->preempt ? "  pre-emptive" : "";
    if (slot->disabled) {
      snprintf(text, sizeof text, "%s  (switched off)", name);
    } else if (ran[k]) {
      snprintf(text, sizeof text, "%s  w %g%s  →  %s u/s²", name, slot->weight, kind, size);
    } else {
      snprintf(text, sizeof text, "%s  w %g%s  —  did not run", name, slot->weight, kind);
    }
    c->y += fitted_line(c, c->x + c->hud->line_h / 2 + 6, slot->disabled ? ERROR : TEXT, text);
  }
  if (!any) {
    line(c, DIM, "rule outputs appear after the next step");
    return;
  }
  swatch(c, (SDL_Color){255, 255, 255, 255});
  const fbAgents *a = &fbSim_World(sim)->agents;
  char total[32];
  fbHud_Number(total, sizeof total, "%.3g", fbMath_Hypot(a->ax[i], a->ay[i]));
  char text[FB_HUD_TEXT];
  snprintf(text, sizeof text, "white: the combined steering %s u/s²%s", total,
           truncated ? " (cut to max_accel)" : "");
  c->y += fitted_line(c, c->x + c->hud->line_h / 2 + 6, TEXT, text);
  char scale[32];
  fbHud_Number(scale, sizeof scale, "%.3g", px_per_accel > 0 ? 1.0 / px_per_accel : 0);
  linef(c, DIM, "arrows: what each rule adds after its weight and the %s combiner; 1 px = %s u/s²",
        fbAccum_KindName(s->accumulator), scale);
  orca_lines(c, sim, i);
}

// The agent's own fields: those its species' rules declare.
static void field_lines(Column *c, const fbSim *sim, int i)
{
  const fbWorld *w = fbSim_World(sim);
  uint32_t mask = w->species[w->agents.species[i]].field_mask;
  char texts[FB_MAX_FIELDS][FB_NAME_LEN + 32];
  const char *items[FB_MAX_FIELDS];
  int n = 0;
  for (int f = 0; f < w->field_count; ++f) {
    if (mask & (1u << f)) {
      char value[32];
      fbHud_Number(value, sizeof value, "%.4g", w->agents.field[f][i]);
      snprintf(texts[n], sizeof texts[n], "%s = %s", w->field_names[f], value);
      items[n] = texts[n];
      n++;
    }
  }
  flow(c, TEXT, items, n);
}

SDL_Rect fbHud_Inspector(fbHud *hud, const fbSim *sim, int i, SDL_Rect area, double px_per_accel)
{
  Column c = {hud, area.x + PAD, area.y + PAD, area.y + PAD, area.w - 2 * PAD, area.y + area.h};
  const fbWorld *w = fbSim_World(sim);
  const fbAgents *a = &w->agents;
  const fbSpecies *s = &w->species[a->species[i]];
  SDL_SetRenderDrawColor(hud->sdl, 255, 255, 255, 40);
  SDL_RenderDrawLine(hud->sdl, area.x + PAD, area.y, area.x + area.w - PAD, area.y);
  linef(&c, fbHud_SpeciesColour(s), "agent %u · %s%s", a->id[i], s->name, s->player ? " (player)" : "");
  char v[8][32];
  double values[8] = {a->px[i], a->py[i], a->vx[i], a->vy[i], fbMath_Hypot(a->vx[i], a->vy[i]),
                      fbMath_Atan2(a->hy[i], a->hx[i]) * 180 / FB_PI, a->energy[i],
                      fbTerrain_Height(&w->terrain, a->px[i], a->py[i])};
  for (int k = 0; k < 8; ++k) {
    fbHud_Number(v[k], sizeof v[k], k == 5 ? "%.0f" : "%.2f", values[k]);
  }
  char texts[6][96];
  uint32_t whose = 0;
  const fbNeighbourList *list = fbSim_SeenList(sim, &whose);  // fbSim_Seen, called by the viewer
  int seen = whose == a->id[i] ? list->len : 0;
  snprintf(texts[0], sizeof texts[0], "position %s, %s", v[0], v[1]);
  snprintf(texts[1], sizeof texts[1], "velocity %s, %s", v[2], v[3]);
  snprintf(texts[2], sizeof texts[2], "speed %s", v[4]);
  snprintf(texts[3], sizeof texts[3], "heading %s°", v[5]);
  snprintf(texts[4], sizeof texts[4], "energy %s", v[6]);
  snprintf(texts[5], sizeof texts[5], fbTerrain_IsFlat(&w->terrain) ? "sees %d" : "sees %d   height %s", seen, v[7]);
  const char *items[6] = {texts[0], texts[1], texts[2], texts[3], texts[4], texts[5]};
  flow(&c, DIM, items, 6);
  field_lines(&c, sim, i);
  fbSelectionCircle circles[FB_MAX_SELECTION_CIRCLES];
  int n = fbRender_SelectionCircles(sim, i, circles, FB_MAX_SELECTION_CIRCLES);
  const char *labels[FB_MAX_SELECTION_CIRCLES];
  for (int k = 0; k < n; ++k) {
    labels[k] = circles[k].label;
  }
  if (n > 0) {
    line(&c, DIM, "circles (world units):");
    flow(&c, TEXT, labels, n);
  }
  rule_lines(&c, sim, i, px_per_accel);
  return (SDL_Rect){area.x, area.y, area.w, c.y - area.y + PAD};
}

// ---- marks in the world -------------------------------------------------------------------------

void fbHud_ScaleBar(fbHud *hud, SDL_Rect view, double px_per_unit)
{
  if (!(px_per_unit > 0)) {
    return;
  }
  double length = fbRender_NiceStep(100.0 / px_per_unit);
  if (length * px_per_unit > 160) {  // 1-2-5 steps: one step down keeps the bar between 50 and 160 px
    double lead = length / fbMath_Pow(10.0, floor(fbMath_Log10(length) + 1e-9));
    length *= lead < 1.5 ? 0.5 : (lead < 3 ? 0.5 : 0.4);
  }
  int w = (int)round(length * px_per_unit);
  int x = view.x + 2 * PAD, y = view.y + view.h - 2 * PAD;
  char text[48];
  snprintf(text, sizeof text, "%g world units", length);
  int tw, th;
  fbHud_Measure(hud, text, &tw, &th);
  fbHud_Box(hud, (SDL_Rect){x - PAD / 2, y - th - 6, (w > tw ? w : tw) + PAD, th + 12});
  SDL_SetRenderDrawColor(hud->sdl, 255, 255, 255, 230);
  SDL_RenderFillRect(hud->sdl, &(SDL_Rect){x, y - 2, w, 3});
  SDL_RenderFillRect(hud->sdl, &(SDL_Rect){x, y - 7, 2, 8});
  SDL_RenderFillRect(hud->sdl, &(SDL_Rect){x + w - 2, y - 7, 2, 8});
  fbHud_Text(hud, x, y - th - 5, TEXT, 0, text, NULL, NULL);
}

void fbHud_Label(fbHud *hud, double x, double y, const char *text)
{
  fbHud_Text(hud, (int)x + 12, (int)y - hud->line_h / 2, (SDL_Color){255, 214, 64, 255}, 0, text, NULL, NULL);
}
