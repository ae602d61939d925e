// hud.c — SDL2_ttf text with a per-line texture cache, the status panel, the inspector and key help.
#include "hud.h"

#include <stdarg.h>
#include <string.h>

#include "render.h"

static const SDL_Color TEXT = {235, 235, 235, 255};
static const SDL_Color DIM = {170, 175, 185, 255};
static const SDL_Color ERROR = {255, 110, 100, 255};
static const SDL_Color GOOD = {140, 230, 140, 255};

#define PAD 8
#define PANEL_W 470

bool fbHud_Init(fbHud *hud, SDL_Renderer *sdl, const char *font_path, int size, char *err, size_t errlen)
{
  memset(hud, 0, sizeof *hud);
  hud->sdl = sdl;
  hud->line_h = size + 4;
  if (!TTF_WasInit() && TTF_Init() != 0) {
    snprintf(err, errlen, "cannot start SDL_ttf: %s", TTF_GetError());
    return false;
  }
  hud->font = TTF_OpenFont(font_path, size);
  if (hud->font == NULL) {
    snprintf(err, errlen, "%s: cannot open the HUD font (install fonts-dejavu-core): %s", font_path, TTF_GetError());
    return false;
  }
  hud->line_h = TTF_FontLineSkip(hud->font);
  return true;
}

void fbHud_Free(fbHud *hud)
{
  for (int k = 0; k < FB_HUD_CACHE; ++k) {
    if (hud->cache[k].texture != NULL) {
      SDL_DestroyTexture(hud->cache[k].texture);
    }
  }
  if (hud->font != NULL) {
    TTF_CloseFont(hud->font);
  }
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
  SDL_Surface *s = wrap > 0 ? TTF_RenderUTF8_Blended_Wrapped(hud->font, text, c, (Uint32)wrap)
                            : TTF_RenderUTF8_Blended(hud->font, text, c);
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
    TTF_SizeUTF8(hud->font, text, w, h);
  }
}

void fbHud_Box(fbHud *hud, SDL_Rect r)
{
  SDL_SetRenderDrawBlendMode(hud->sdl, SDL_BLENDMODE_BLEND);
  SDL_SetRenderDrawColor(hud->sdl, 12, 14, 18, 190);
  SDL_RenderFillRect(hud->sdl, &r);
}

// ---- the status panel ---------------------------------------------------------------------------

// Lines are laid out top to bottom over a box drawn first at the height of the previous frame's
// content (text is drawn as it is laid out), so the box lags at most one frame behind a new error.
typedef struct Column {
  fbHud *hud;
  int x, y, top, width;
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

static void species_lines(Column *c, const fbSim *sim)
{
  const fbWorld *w = &sim->world;
  int counts[FB_MAX_SPECIES] = {0};
  for (int i = 0; i < w->agents.count; ++i) {
    counts[w->agents.species[i]]++;
  }
  for (int s = 0; s < w->species_count; ++s) {
    const fbSpecies *sp = &w->species[s];
    SDL_Color col = sp->player ? (SDL_Color){0, 255, 0, 255}
                               : (SDL_Color){sp->colour[0], sp->colour[1], sp->colour[2], 255};
    SDL_SetRenderDrawColor(c->hud->sdl, col.r, col.g, col.b, 255);
    int box = c->hud->line_h / 2;
    SDL_RenderFillRect(c->hud->sdl, &(SDL_Rect){c->x, c->y + box / 2 + 1, box, box});
    int h;
    char text[FB_HUD_TEXT];
    snprintf(text, sizeof text, "%s  %d%s", sp->name, counts[s], sp->player ? "  (arrow keys)" : "");
    fbHud_Text(c->hud, c->x + box + 6, c->y, TEXT, 0, text, NULL, &h);
    c->y += h;
  }
}

// Catches made by agents (a:remove), and the scenario's own metrics, as in its CSV columns.
static void metric_lines(Column *c, const fbSim *sim, const fbHudStatus *st)
{
  if (sim->catches > 0) {
    linef(c, TEXT, "catches  %llu", (unsigned long long)sim->catches);
  }
  if (st->metrics == NULL || sim->hooks.metric_count == 0) {
    return;
  }
  char text[FB_HUD_TEXT] = "";
  size_t used = 0;
  for (int m = 0; m < sim->hooks.metric_count && used < sizeof text; ++m) {
    used += (size_t)snprintf(text + used, sizeof text - used, "%s%s %.4g", m ? "   " : "", sim->hooks.metric_names[m],
                             st->metrics[m]);
  }
  line(c, DIM, text);
}

static void error_lines(Column *c, const fbSim *sim, const fbHudStatus *st)
{
  const fbWorld *w = &sim->world;
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
  if (st->scenario_failed && sim->error[0] != '\0') {
    error_line(c, "scenario: ", sim->error);
  }
  if (sim->reload_error[0] != '\0') {
    error_line(c, "scenario save not applied: ", sim->reload_error);
  }
}

SDL_Rect fbHud_Status(fbHud *hud, const fbSim *sim, const fbHudStatus *st)
{
  SDL_Rect box = {PAD, PAD, PANEL_W + 2 * PAD, hud->status_h};
  fbHud_Box(hud, box);
  Column c = {hud, 2 * PAD, 2 * PAD, 2 * PAD, PANEL_W};
  if (sim == NULL) {
    line(&c, TEXT, "no scenario running");
    error_line(&c, "", st->load_error ? st->load_error : "");
    line(&c, DIM, "fix the file and press R to load it again");
  } else {
    const char *state = st->finished ? "finished (--steps)" : st->paused ? "paused" : "running";
    double when = 0;
    const char *outcome = fbSim_Outcome(sim, &when);
    if (outcome != NULL) {
      linef(&c, TEXT, "%s — %s, outcome %s at %.2f s", sim->name, state, outcome, when);
    } else {
      linef(&c, TEXT, "%s — %s", sim->name, state);
    }
    linef(&c, DIM, "step %llu   t %.2f s   seed %llu", (unsigned long long)sim->world.step,
          sim->world.step * sim->world.dt, (unsigned long long)sim->world.seed);
    linef(&c, TEXT, "%.0f steps/s   %.0f frames/s   speed ×%g (%.3g steps/frame)", st->steps_per_s, st->frames_per_s,
          st->time_scale, st->steps_per_frame);
    species_lines(&c, sim);
    metric_lines(&c, sim, st);
    const fbStepCost *k = &st->cost;
    linef(&c, DIM, "step cost: grid %.2f · rules %.2f · integration %.2f · bodies %.2f · hooks %.2f ms", k->grid_ms,
          k->rules_ms, k->integrate_ms, k->bodies_ms, k->hooks_ms);
    if (st->following_flock || st->following_agent) {
      line(&c, GOOD, st->following_flock ? "following the flock centre (F)" : "following the selected agent (Shift+F)");
    }
    error_lines(&c, sim, st);
  }
  if (st->notice != NULL) {
    line(&c, GOOD, st->notice);
  }
  hud->status_h = c.y - c.top + 2 * PAD;
  box.h = hud->status_h;
  return box;
}

// ---- the inspector ------------------------------------------------------------------------------

static void rule_lines(Column *c, const fbSim *sim, int i)
{
  const fbSpecies *s = &sim->world.species[sim->world.agents.species[i]];
  bool any = false;
  for (int k = 0; k < s->rule_count; ++k) {
    fbVec2 v;
    bool ran = fbSim_InspectOutput(sim, k, &v);
    any = any || ran;
    SDL_Color col = fbRender_RuleColour(k);
    SDL_SetRenderDrawColor(c->hud->sdl, col.r, col.g, col.b, 255);
    int box = c->hud->line_h / 2;
    SDL_RenderFillRect(c->hud->sdl, &(SDL_Rect){c->x, c->y + box / 2 + 1, box, box});
    char text[FB_HUD_TEXT];
    const char *name = fbSim_RuleName(sim, sim->world.agents.species[i], k);
    if (s->rules[k].disabled) {
      snprintf(text, sizeof text, "%s  (switched off)", name);
    } else if (ran) {
      snprintf(text, sizeof text, "%s  w %g%s  →  (%.3g, %.3g)  |%.3g|", name, s->rules[k].weight,
               s->rules[k].force ? " force" : "", v.x, v.y, fbV_Length(v));
    } else {
      snprintf(text, sizeof text, "%s  w %g  —", name, s->rules[k].weight);
    }
    int h;
    fbHud_Text(c->hud, c->x + box + 6, c->y, s->rules[k].disabled ? ERROR : TEXT, 0, text, NULL, &h);
    c->y += h;
  }
  if (!any) {
    line(c, DIM, "rule outputs appear after the next step");
  }
}

SDL_Rect fbHud_Inspector(fbHud *hud, const fbSim *sim, int i, int bottom)
{
  SDL_Rect box = {PAD, bottom - PAD - hud->inspector_h, PANEL_W + 2 * PAD, hud->inspector_h};
  fbHud_Box(hud, box);
  Column c = {hud, 2 * PAD, box.y + PAD, box.y + PAD, PANEL_W};
  const fbWorld *w = &sim->world;
  const fbAgents *a = &w->agents;
  const fbSpecies *s = &w->species[a->species[i]];
  linef(&c, TEXT, "agent %u · %s%s", a->id[i], s->name, s->player ? " (player)" : "");
  linef(&c, DIM, "position %.2f, %.2f   velocity %.2f, %.2f   speed %.2f", a->px[i], a->py[i], a->vx[i], a->vy[i],
        hypot(a->vx[i], a->vy[i]));
  linef(&c, DIM, "heading %.0f°   acceleration %.2f, %.2f   force %.2f, %.2f", atan2(a->hy[i], a->hx[i]) * 180 / FB_PI,
        a->ax[i], a->ay[i], a->fx[i], a->fy[i]);
  int seen = sim->seen_id == a->id[i] ? sim->seen.len : 0;  // fbSim_Seen, called by the viewer
  linef(&c, DIM, "energy %.3g   sees %d   vision r %g, fov %g°   height %.2f", a->energy[i], seen,
        s->vision.radius, s->fov_degrees, fbTerrain_Height(&w->terrain, a->px[i], a->py[i]));
  char fields[FB_HUD_TEXT] = "";
  for (int f = 0; f < w->field_count; ++f) {
    size_t used = strlen(fields);
    snprintf(fields + used, sizeof fields - used, "%s%s = %.4g", f ? "   " : "", w->field_names[f], a->field[f][i]);
  }
  if (fields[0] != '\0') {
    line(&c, TEXT, fields);
  }
  rule_lines(&c, sim, i);
  hud->inspector_h = c.y - c.top + 2 * PAD;
  box.h = hud->inspector_h;
  return box;
}

SDL_Rect fbHud_Help(fbHud *hud, int view_w, int view_h)
{
  static const char *help = "Space pause · . step · +/− speed · R restart · N new seed · click select · "
                            "F follow flock · Shift+F follow agent · Home fit · T trails · Tab parameters · "
                            "P screenshot · Esc quit";
  int w, h;
  fbHud_Measure(hud, help, &w, &h);
  int wrap = w > view_w - 4 * PAD ? view_w - 4 * PAD : 0;
  int lines = wrap ? 2 : 1;
  SDL_Rect box = {PAD, view_h - PAD - lines * h - PAD, (wrap ? wrap : w) + 2 * PAD, lines * h + PAD};
  fbHud_Box(hud, box);
  fbHud_Text(hud, 2 * PAD, box.y + PAD / 2, DIM, wrap, help, NULL, NULL);
  return box;
}

void fbHud_Label(fbHud *hud, double x, double y, const char *text)
{
  fbHud_Text(hud, (int)x + 12, (int)y - hud->line_h / 2, (SDL_Color){255, 214, 64, 255}, 0, text, NULL, NULL);
}
