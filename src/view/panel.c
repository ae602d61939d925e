// panel.c — the parameter panel (Tab): species fields, rule weights and parameters as sliders, check boxes and fields, kept as --set values, printed as Lua.
#include "panel.h"

#include <string.h>

#include "fb_math.h"
#include "live.h"
#include "schema.h"

#define PAD 8
#define ROW_H 18
#define GAP 3
#define FIELD_W 84
#define LABEL_SHARE 0.42  // of a text row: its label; the field takes the rest
#define RESET_W 18
#define SCROLL_W 8
#define SCROLLBAR_ID 0x7fff0000

static const SDL_Color WHITE = {230, 230, 230, 255}, GREY = {170, 175, 185, 255}, RED = {255, 110, 100, 255};

// ---- ranges -------------------------------------------------------------------------------------

// The smallest of 1, 2, 5 times a power of ten that is at least x (1 for x <= 0): slider ends a
// reader can take in at a glance.
static double nice_above(double x)
{
  if (!(x > 0)) {
    return 1;
  }
  double p = fbMath_Pow(10, floor(fbMath_Log10(x)));
  for (int k = 0; k < 3; ++k) {
    double step = (double[]){1, 2, 5}[k] * p;
    if (step >= x * (1 - 1e-12)) {
      return step;
    }
  }
  return 10 * p;
}

// A weight: 0 .. max(2, 2x) rounded up; a negative one from as far below zero.
static void weight_range(double v, double *lo, double *hi)
{
  *lo = v < 0 ? -nice_above(-2 * v) : 0;
  *hi = fmax(2, nice_above(2 * v));
}

// A parameter: its declared bounds; where one is not declared, 0 (or as far below zero as a
// negative value) and a round number at least twice the value.
static void param_range(const fbParamSpec *spec, double v, double *lo, double *hi)
{
  double min = spec ? spec->min : -INFINITY, max = spec ? spec->max : INFINITY;
  *lo = isfinite(min) ? min : (v < 0 ? -nice_above(-2 * v) : fmin(0, max - 1));
  *hi = isfinite(max) ? max : fmax(nice_above(2 * fabs(v)), *lo > 0 ? nice_above(2 * *lo) : *lo + 1);
}

// ---- the species fields ---------------------------------------------------------------------------

static const fbSpecies *species_of(const fbSim *sim, int s) { return &fbSim_World(sim)->species[s]; }

static const fbField *schema_of(const fbLiveField *f) { return fbSchema_Find(&fbSpeciesSchema, f->field); }

// The slider's upper end for field f at value v, as the table says (live.h): from the landmarks
// that relate the fields (Gompert Table 1, defs.c), e.g. cruising speed at most the maximum.
static double top_of(const fbSim *sim, int s, const fbLiveField *f, double v)
{
  if (f->top > 0) {
    return f->top;
  }
  for (int k = 0; f->top_field != NULL && k < fbLiveFieldCount; ++k) {
    if (strcmp(fbLiveFields[k].field, f->top_field) == 0) {
      return fbLive_Running(sim, s, &fbLiveFields[k]);
    }
  }
  return nice_above(fmax(f->top_min, 2 * v));
}

// How many names a choice field has (aliases not counted); its values are 0 .. that - 1.
static int choice_count(const fbField *f)
{
  int n = 0;
  fbChoice c;
  for (int k = 0; fbField_Choice(f, k, &c); ++k) {
    n += fbField_ChoiceName(f, c.value) == c.name;
  }
  return n;
}

// ---- the kept changes ---------------------------------------------------------------------------

static fbPanelSet *find_set(fbParamPanel *p, const char *key)
{
  for (int k = 0; k < p->set_count; ++k) {
    if (strcmp(p->sets[k].key, key) == 0) {
      return &p->sets[k];
    }
  }
  return NULL;
}

// Keeps text ("key=value") as the row's change; the value it replaced is noted the first time.
static bool keep_set(fbParamPanel *p, const fbPanelRow *row, const char *text)
{
  fbPanelSet *e = find_set(p, row->key);
  if (e == NULL) {
    if (p->set_count == FB_PANEL_MAX_SETS) {
      return false;
    }
    e = &p->sets[p->set_count++];
    *e = (fbPanelSet){.kind = row->kind, .integer = row->integer, .base = row->base};
    snprintf(e->key, sizeof e->key, "%s", row->key);
    memcpy(e->base_text, row->base_text, sizeof e->base_text);
  }
  snprintf(e->text, sizeof e->text, "%s", text);
  e->used = true;
  p->revision++;
  return true;
}

int fbPanel_Sets(const fbParamPanel *p, const char **sets, int max)
{
  int n = 0;
  for (int k = 0; k < p->set_count && n < max; ++k) {
    if (p->sets[k].used) {
      sets[n++] = p->sets[k].text;
    }
  }
  return n;
}

// A number as the panel writes it into a --set: whole numbers of integer rows without a point.
static void format_value(double v, bool integer, bool exact, char *out, size_t len)
{
  if (integer && v == floor(v) && fabs(v) < 9e15) {
    snprintf(out, len, "%lld", (long long)v);
  } else {
    snprintf(out, len, exact ? "%.17g" : "%.6g", v);
  }
}

// Puts back the value a change replaced (a species field as written: -1 makes it derived again).
static bool restore(fbSim *sim, const fbPanelSet *e, char *msg, size_t len)
{
  if (e->kind == FB_PANEL_RESTART) {
    return true;  // never applied live
  }
  const char *dot = strchr(e->key, '.');
  char species[FB_NAME_LEN];
  snprintf(species, sizeof species, "%.*s", (int)(dot - e->key), e->key);
  int s = fbWorld_FindSpecies(fbSim_World(sim), species);
  if (s < 0) {
    snprintf(msg, len, "%s: no such species now", e->key);
    return false;
  }
  if (e->kind == FB_PANEL_SPECIES) {
    return fbLive_SetSpeciesField(sim, s, dot + 1, e->base, msg, len);
  }
  char value[FB_PARAM_TEXT], set[sizeof e->text];
  if (e->kind == FB_PANEL_SWITCH || e->kind == FB_PANEL_TEXT) {
    snprintf(value, sizeof value, "%s", e->base_text);
  } else {
    format_value(e->base, e->integer, true, value, sizeof value);
  }
  snprintf(set, sizeof set, "%s=%.*s", e->key, FB_PARAM_TEXT, value);
  return fbLive_Set(sim, set, msg, len);
}

// A new sim: it was built with the changes kept at its restart, or from the file alone (a
// scenario reload). Applying every change again, and undoing those reset since, makes it the
// same either way.
static void reapply(fbParamPanel *p, fbSim *sim)
{
  for (int k = 0; k < p->set_count; ++k) {
    const fbPanelSet *e = &p->sets[k];
    char msg[1024];
    bool ok = !e->used ? restore(sim, e, msg, sizeof msg) : e->kind == FB_PANEL_RESTART || fbLive_Set(sim, e->text, msg, sizeof msg);
    if (!ok) {
      fprintf(stderr, "flockbox: panel: %s\n", msg);
    }
  }
}

// ---- the rows -------------------------------------------------------------------------------------

static fbPanelRow *add_row(fbParamPanel *p, fbPanelRowKind kind, int s, int k, int q)
{
  if (p->row_count == FB_PANEL_MAX_ROWS) {
    return NULL;
  }
  fbPanelRow *row = &p->rows[p->row_count++];
  memset(row, 0, sizeof *row);
  *row = (fbPanelRow){.kind = kind, .species = s, .rule = k, .param = q};
  return row;
}

// The value the row's change replaced if there is one, else the value now.
static double base_of(fbParamPanel *p, const fbPanelRow *row, double now)
{
  const fbPanelSet *e = find_set(p, row->key);
  return e != NULL ? e->base : now;
}

// A row for each field of the live table that has a label, in its order.
static void species_rows(fbParamPanel *p, const fbSim *sim, int s)
{
  const char *name = species_of(sim, s)->name;
  for (int f = 0; f < fbLiveFieldCount; ++f) {
    const fbLiveField *lf = &fbLiveFields[f];
    if (!fbLive_Shown(sim, s, lf)) {
      continue;
    }
    fbPanelRow *row = add_row(p, lf->live ? FB_PANEL_SPECIES : FB_PANEL_RESTART, s, -1, f);
    if (row == NULL) {
      return;
    }
    const fbField *field = schema_of(lf);
    snprintf(row->field, sizeof row->field, "%s", lf->field);
    snprintf(row->label, sizeof row->label, "%s", lf->label);
    int placed = fbSim_PlacedAgents(sim, s);
    if (strcmp(lf->field, "count") == 0 && placed > 0) {  // count is the random ones: say who else starts
      snprintf(row->label, sizeof row->label, "agents (R): %d placed +", placed);
    }
    snprintf(row->key, sizeof row->key, "%s.%s", name, lf->field);
    double v = fbLive_Running(sim, s, lf);
    row->choice = field->kind == FB_FIELD_CHOICE;
    row->integer = field->kind == FB_FIELD_INT || row->choice;
    row->step = row->integer ? 1 : 0;
    row->lo = 0;
    row->hi = fmax(row->choice ? choice_count(field) - 1 : top_of(sim, s, lf, v), 1e-3);
    row->base = base_of(p, row, fbLive_SpeciesField(sim, s, lf->field));
  }
}

#define FB_PANEL_RULE_PARAMS (2 * FB_MAX_PARAM_SPECS)

// The params table may hold more than the declared parameters: a rule can add to it.
static void rule_rows(fbParamPanel *p, fbSim *sim, int s, int k)
{
  const char *species = species_of(sim, s)->name, *rule = fbSim_RuleName(sim, s, k);
  fbPanelRow *row = add_row(p, FB_PANEL_WEIGHT, s, k, -1);
  if (row == NULL) {
    return;
  }
  double weight = species_of(sim, s)->rules[k].weight;
  snprintf(row->field, sizeof row->field, "weight");
  snprintf(row->label, sizeof row->label, "weight");
  snprintf(row->key, sizeof row->key, "%s.%s.weight", species, rule);
  weight_range(weight, &row->lo, &row->hi);
  row->base = base_of(p, row, weight);
  fbParamDef values[FB_PANEL_RULE_PARAMS];
  int n = fbSim_ParamValues(sim, s, k, values, FB_PANEL_RULE_PARAMS);
  for (int q = 0; q < n; ++q) {
    const fbParamDef *v = &values[q];
    bool number = v->kind == FB_VALUE_NUMBER || v->kind == FB_VALUE_INTEGER;
    row = add_row(p, number ? FB_PANEL_PARAM : v->kind == FB_VALUE_BOOL ? FB_PANEL_SWITCH : FB_PANEL_TEXT, s, k, q);
    if (row == NULL) {
      return;
    }
    const fbParamSpec *spec = fbSim_ParamSpec(sim, s, k, v->name);
    memcpy(row->field, v->name, sizeof row->field);
    memcpy(row->label, v->name, sizeof row->label);
    snprintf(row->key, sizeof row->key, "%s.%s.%.*s", species, rule, FB_NAME_LEN - 1, v->name);
    param_range(spec, v->number, &row->lo, &row->hi);
    row->integer = spec != NULL && (spec->kind == FB_VALUE_INTEGER || spec->integer);
    row->step = row->integer ? 1 : 0;
    row->base = base_of(p, row, v->number);
    const fbPanelSet *e = find_set(p, row->key);
    snprintf(row->base_text, sizeof row->base_text, "%s",
             e != NULL ? e->base_text : v->kind == FB_VALUE_BOOL ? (v->number != 0 ? "true" : "false") : v->text);
  }
}

static void build_rows(fbParamPanel *p, fbSim *sim)
{
  p->row_count = 0;
  for (int s = 0; s < fbSim_World(sim)->species_count; ++s) {
    species_rows(p, sim, s);
    for (int k = 0; k < fbSim_World(sim)->species[s].rule_count; ++k) {
      rule_rows(p, sim, s, k);
    }
  }
  p->ranged = true;
}

void fbPanel_Reset(fbParamPanel *p, fbSim *sim)
{
  p->ranged = false;
  p->row_count = 0;
  reapply(p, sim);  // at once, whether the panel is open or not: the changes hold until reset
}

bool fbPanel_Unsaved(const fbParamPanel *p)
{
  bool any = false;
  for (int k = 0; k < p->set_count; ++k) {
    any = any || p->sets[k].used;
  }
  return any && p->revision != p->saved_revision;
}

void fbPanel_MarkSaved(fbParamPanel *p) { p->saved_revision = p->revision; }

void fbPanel_Forget(fbParamPanel *p)
{
  p->set_count = 0;
  p->revision = p->saved_revision = 0;
  p->ranged = false;
  p->row_count = 0;
  p->scroll = 0;
  memset(p->folded, 0, sizeof p->folded);
}

const fbPanelRow *fbPanel_Find(const fbParamPanel *p, const char *key)
{
  for (int k = 0; k < p->row_count; ++k) {
    if (strcmp(p->rows[k].key, key) == 0) {
      return &p->rows[k];
    }
  }
  return NULL;
}

// A rule's parameter by name in its list of values; NULL if it is gone (a reloaded rule dropped it).
static const fbParamDef *find_value(const fbParamDef *values, int n, const char *name)
{
  for (int q = 0; q < n; ++q) {
    if (strcmp(values[q].name, name) == 0) {
      return &values[q];
    }
  }
  return NULL;
}

// What the row's value is now: a pending restart value, else what the sim runs with (a switch's 0
// or 1, and 0 for a text, whose string is the value's).
static double row_value(fbParamPanel *p, fbSim *sim, const fbPanelRow *row, const fbParamDef *value)
{
  switch (row->kind) {
  case FB_PANEL_RESTART: {
    const fbPanelSet *e = find_set(p, row->key);
    const char *eq = e && e->used ? strchr(e->text, '=') : NULL;
    return eq ? atof(eq + 1) : fbLive_Running(sim, row->species, &fbLiveFields[row->param]);
  }
  case FB_PANEL_SPECIES: return fbLive_Running(sim, row->species, &fbLiveFields[row->param]);
  case FB_PANEL_WEIGHT: return species_of(sim, row->species)->rules[row->rule].weight;
  case FB_PANEL_PARAM:
  case FB_PANEL_SWITCH:
  case FB_PANEL_TEXT: return value != NULL ? value->number : 0;
  }
  return 0;
}

// ---- applying -----------------------------------------------------------------------------------

// A value that takes effect on restart is checked as --set will check it then.
static bool check_restart(const fbSim *sim, const fbPanelRow *row, const char *text, char *msg, size_t len)
{
  fbSpeciesDef def = *fbSim_SpeciesDef(sim, row->species);
  return fbField_Parse(fbSchema_Find(&fbSpeciesSchema, row->field), &def, text, msg, len);
}

// Applies row = text (a --set value) at once, or keeps it for the restart; a refused value is not
// applied: the row goes back to the value that runs, and "refused TEXT: why" stays under it until
// a good value is set. A rule's parameter is read as the kind its module declares.
static void apply(fbParamPanel *p, fbSim *sim, fbPanelRow *row, const char *text, double value)
{
  char set[sizeof p->sets[0].text], msg[1024] = "";
  bool fits = snprintf(set, sizeof set, "%s=%s", row->key, text) < (int)sizeof set;
  bool ok;
  if (row->kind == FB_PANEL_RESTART) {
    ok = check_restart(sim, row, text, msg, sizeof msg);
  } else if (row->kind == FB_PANEL_PARAM || row->kind == FB_PANEL_SWITCH || row->kind == FB_PANEL_TEXT) {
    ok = fbLive_SetParam(sim, row->species, row->rule, row->field, text, msg, sizeof msg);
  } else {
    ok = fits && fbLive_Set(sim, set, msg, sizeof msg);
  }
  if (ok && !fits) {
    snprintf(msg, sizeof msg, "applied now, but too long to keep for R and N");
    ok = false;
  } else if (ok && !keep_set(p, row, set)) {
    snprintf(msg, sizeof msg, "applied now, but not kept for R and N (at most %d changes)", FB_PANEL_MAX_SETS);
    ok = false;
  }
  if (ok) {
    row->error[0] = '\0';
    if (row->kind == FB_PANEL_TEXT) {
      snprintf(row->text, sizeof row->text, "%s", text);  // what runs now: shown from this frame on
    }
  } else {
    snprintf(row->error, sizeof row->error, "refused %.24s%s: %.470s", text, strlen(text) > 24 ? "..." : "", msg);
  }
  row->tried = value;
}

static void apply_number(fbParamPanel *p, fbSim *sim, fbPanelRow *row, double value)
{
  char text[64];
  if (row->choice) {
    snprintf(text, sizeof text, "%s", fbField_ChoiceName(fbSchema_Find(&fbSpeciesSchema, row->field), (int)value));
  } else {
    format_value(value, row->integer, false, text, sizeof text);
  }
  apply(p, sim, row, text, value);
}

// Typed text: a number (spaces around it allowed), applied as typed so that 3 stays an integer
// and 2.5 a float, as --set would read them.
static void apply_typed(fbParamPanel *p, fbSim *sim, fbPanelRow *row, const char *typed)
{
  if (row->kind == FB_PANEL_TEXT) {
    apply(p, sim, row, typed, 0);  // any text, spaces and all
    return;
  }
  char text[FB_UI_EDIT_LEN];
  while (*typed == ' ') {
    ++typed;
  }
  snprintf(text, sizeof text, "%s", typed);
  for (size_t n = strlen(text); n > 0 && text[n - 1] == ' '; --n) {
    text[n - 1] = '\0';
  }
  char *end;
  double v = strtod(text, &end);
  if (end == text || *end != '\0') {
    snprintf(row->error, sizeof row->error, "'%s' is not a number", text);
    return;
  }
  apply(p, sim, row, text, v);
}

static void reset(fbParamPanel *p, fbSim *sim, fbPanelRow *row)
{
  fbPanelSet *e = find_set(p, row->key);
  char msg[1024];
  if (e != NULL && e->used && !restore(sim, e, msg, sizeof msg)) {
    snprintf(row->error, sizeof row->error, "cannot reset: %.480s", msg);
    return;
  }
  if (e != NULL && e->used) {
    e->used = false;
    p->revision++;
  }
  row->error[0] = '\0';
}

// ---- drawing ------------------------------------------------------------------------------------

typedef struct Layout {
  fbParamPanel *p;
  fbUi *ui;
  fbSim *sim;
  SDL_Rect area;   // the panel on screen
  int x, w;        // the content's column
  int y;           // next line, on screen
} Layout;

static bool visible(const Layout *l, int h) { return l->y + h > l->area.y && l->y < l->area.y + l->area.h; }

static void label(Layout *l, int indent, SDL_Color c, const char *text)
{
  int h = l->ui->hud->line_h;
  if (visible(l, h)) {
    char fitted[256];
    fbHud_Elide(l->ui->hud, text, l->w - indent, fitted, sizeof fitted);
    fbUi_Label(l->ui, l->x + indent, l->y, c, fitted);
  }
  l->y += h;
}

// The value as the field shows it.
static void shown_text(const fbPanelRow *row, double v, char *out, size_t len)
{
  const char *name = row->choice ? fbField_ChoiceName(fbSchema_Find(&fbSpeciesSchema, row->field), (int)v) : NULL;
  if (row->choice) {
    snprintf(out, len, "%s", name ? name : "?");
  } else if (row->integer && v == floor(v)) {
    snprintf(out, len, "%.0f", v);
  } else {
    snprintf(out, len, "%.4g", v);
  }
}

// A switch: its label on a plain band and a check box showing the value that runs; a click on
// either flips it.
static void switch_widgets(Layout *l, fbPanelRow *row, int id, bool on)
{
  fbUi_Slider(l->ui, id, row->rect, row->label, &(double){0}, 0, 0, 0);
  bool label_hit = fbUi_Pressed(l->ui, row->rect);
  if (fbUi_Check(l->ui, row->field_rect, on, on ? "true" : "false") || label_hit) {
    apply(l->p, l->sim, row, on ? "false" : "true", !on);
  }
}

// A text: its label on a plain band, and a wider field showing the string that runs.
static void text_widgets(Layout *l, fbPanelRow *row, int id)
{
  int room = row->rect.w + GAP + row->field_rect.w;
  row->rect.w = (int)(room * LABEL_SHARE);
  row->field_rect.x = row->rect.x + row->rect.w + GAP;
  row->field_rect.w = room - row->rect.w - GAP;
  fbUi_Slider(l->ui, id, row->rect, row->label, &(double){0}, 0, 0, 0);
  char typed[FB_UI_EDIT_LEN];
  if (fbUi_Field(l->ui, id + 1, row->field_rect, row->text, typed, sizeof typed) == FB_UI_APPLY) {
    apply_typed(l->p, l->sim, row, typed);
  }
}

static void row_widgets(Layout *l, fbPanelRow *row, int id, double value)
{
  fbParamPanel *p = l->p;
  bool changed = find_set(p, row->key) != NULL && find_set(p, row->key)->used;
  double shown = value;  // a refused value is not shown: the row says what runs, the error what was refused
  row->shown = shown;
  int slider_w = l->w - FIELD_W - RESET_W - 2 * GAP;
  row->rect = (SDL_Rect){l->x, l->y, slider_w, ROW_H};
  row->field_rect = (SDL_Rect){l->x + slider_w + GAP, l->y, FIELD_W, ROW_H};
  row->reset_rect = changed || row->error[0] ? (SDL_Rect){l->x + l->w - RESET_W, l->y, RESET_W, ROW_H} : (SDL_Rect){0};
  char text[64], typed[FB_UI_EDIT_LEN];
  shown_text(row, shown, text, sizeof text);
  if (row->kind == FB_PANEL_SWITCH) {
    switch_widgets(l, row, id, shown != 0);
  } else if (row->kind == FB_PANEL_TEXT) {
    text_widgets(l, row, id);
  } else if (row->choice) {
    fbUi_Slider(l->ui, id, (SDL_Rect){row->rect.x, row->rect.y, row->rect.w, ROW_H}, row->label, &(double){0}, 0, 0, 0);
    if (fbUi_Button(l->ui, row->field_rect, text)) {  // the next choice, round to the first
      apply_number(p, l->sim, row, (int)(shown + 1) % (int)(row->hi + 1));
    }
  } else {
    double v = shown;
    if (fbUi_Slider(l->ui, id, row->rect, row->label, &v, row->lo, row->hi, row->step)) {
      apply_number(p, l->sim, row, v);
    }
    if (fbUi_Field(l->ui, id + 1, row->field_rect, text, typed, sizeof typed) == FB_UI_APPLY) {
      apply_typed(p, l->sim, row, typed);
    }
  }
  if (row->reset_rect.w > 0 && fbUi_Button(l->ui, row->reset_rect, "\xe2\x86\xba")) {  // ↺
    reset(p, l->sim, row);
  }
}

static void draw_row(Layout *l, int index, const fbParamDef *values, int value_count)
{
  fbPanelRow *row = &l->p->rows[index];
  const fbParamDef *param = row->rule >= 0 ? find_value(values, value_count, row->field) : NULL;
  double value = row_value(l->p, l->sim, row, param);
  if (row->kind == FB_PANEL_TEXT) {
    snprintf(row->text, sizeof row->text, "%s", param != NULL ? param->text : "");
  }
  // A typed value beyond the slider widens it (not while it is dragged: it would move under the mouse).
  int id = 1 + 2 * index;
  if (l->ui->active != id && row->kind != FB_PANEL_SWITCH && row->kind != FB_PANEL_TEXT && !row->choice &&
      value > row->hi) {
    row->hi = nice_above(value);
  }
  row->rect = row->field_rect = row->reset_rect = (SDL_Rect){0};
  if (visible(l, ROW_H)) {
    row_widgets(l, row, id, value);
  }
  l->y += ROW_H + GAP;
  if (row->error[0] != '\0') {
    int h;
    fbHud_Text(l->ui->hud, l->x + 4, l->y, RED, l->w - 4, row->error, NULL, &h);
    l->y += h + GAP;
  }
}

static void species_header(Layout *l, int s)
{
  const fbSpecies *sp = species_of(l->sim, s);
  char title[FB_NAME_LEN + 48];
  snprintf(title, sizeof title, "%s %s", l->p->folded[s] ? "\xe2\x96\xb8" : "\xe2\x96\xbe", sp->name);  // ▸ ▾
  SDL_Rect r = {l->x, l->y, l->w, l->ui->hud->line_h};
  if (visible(l, r.h) && fbUi_Pressed(l->ui, r)) {
    l->p->folded[s] = !l->p->folded[s];
  }
  l->y += GAP;
  label(l, 0, fbHud_SpeciesColour(sp), title);  // lightened: a dark red header is hard to read
}

static void rule_title(Layout *l, int s, int k)
{
  const fbRuleSlot *slot = &species_of(l->sim, s)->rules[k];
  const char *name = fbSim_RuleName(l->sim, s, k), *module = fbSim_RuleModule(l->sim, s, k);
  bool renamed = strcmp(name, module) != 0;
  char title[FB_NAME_LEN * 2 + 32];
  snprintf(title, sizeof title, "%s%s%s%s", name, renamed ? "  \xc2\xb7 " : "", renamed ? module : "",
           slot->disabled ? "  (switched off)" : "");
  l->y += GAP;
  label(l, 0, slot->disabled ? RED : WHITE, title);
}

// Rows in order, with a header where a species starts and a title where a rule does; a folded
// species shows its header alone.
static void draw_rows(Layout *l)
{
  int species = -1, rule = -2, value_count = 0;
  fbParamDef values[FB_PANEL_RULE_PARAMS];
  for (int i = 0; i < l->p->row_count; ++i) {
    fbPanelRow *row = &l->p->rows[i];
    if (row->species != species) {
      species = row->species;
      rule = -2;
      species_header(l, species);
    }
    if (l->p->folded[species]) {
      row->rect = row->field_rect = row->reset_rect = (SDL_Rect){0};
      continue;
    }
    if (row->rule != rule) {
      rule = row->rule;
      if (rule >= 0) {
        rule_title(l, species, rule);
        value_count = fbSim_ParamValues(l->sim, species, rule, values, FB_PANEL_RULE_PARAMS);
      }
    }
    draw_row(l, i, values, value_count);
  }
}

void fbPanel_Draw(fbParamPanel *p, fbUi *ui, fbSim *sim, SDL_Rect area)
{
  if (!p->ranged) {
    build_rows(p, sim);
  }
  fbUi_Panel(ui, area);
  int range = (int)fmax(0, p->content_h - area.h);
  p->scroll = (int)fmax(0, fmin(p->scroll - fbUi_Wheel(ui, area) * 3 * (ROW_H + GAP), range));
  p->scrollbar = range > 0 ? (SDL_Rect){area.x + area.w - SCROLL_W - 3, area.y + 3, SCROLL_W, area.h - 6} : (SDL_Rect){0};
  if (range > 0) {
    fbUi_Scrollbar(ui, SCROLLBAR_ID, p->scrollbar, p->content_h, area.h, &p->scroll);
  }
  SDL_RenderSetClipRect(ui->hud->sdl, &area);
  // The scrollbar's column is kept when everything fits, so that rows do not change width (under
  // the mouse) as content grows past the panel.
  Layout l = {p, ui, sim, area, area.x + PAD, area.w - 2 * PAD - SCROLL_W - 3, area.y + PAD - p->scroll};
  label(&l, 0, GREY, "Drag, or click a value to type it (Enter)");
  label(&l, 0, GREY, "\xe2\x86\xba resets \xc2\xb7 R/N keep changes \xc2\xb7 C prints Lua");
  label(&l, 0, GREY, "Shift+C saves them as a scenario");
  draw_rows(&l);
  p->content_h = l.y + p->scroll - area.y + PAD;
  SDL_RenderSetClipRect(ui->hud->sdl, NULL);
}

// ---- printing as Lua ----------------------------------------------------------------------------

// One field of the live table as Lua: name = value, a choice by its name.
static void print_field(const fbSim *sim, int s, const fbLiveField *f, const char *name, FILE *out)
{
  const fbField *field = schema_of(f);
  double v = fbLive_Running(sim, s, f);
  if (field->kind == FB_FIELD_CHOICE) {
    fprintf(out, "%s = \"%s\"", name, fbField_ChoiceName(field, (int)v));
  } else {
    fprintf(out, "%s = %.9g", name, v);
  }
}

// Printed: shown on the panel for this species (ORCA's fields only where it is on) and applied live.
static bool printed(const fbSim *sim, int s, const fbLiveField *f) { return fbLive_Shown(sim, s, f) && f->live; }

// The panel's live fields with the values the species runs with: the plain ones on a line, then
// each table of dotted ones (vision = { radius = ..., fov = ... }) on its own.
static void print_species_fields(const fbSim *sim, int s, FILE *out)
{
  const char *sep = "";
  for (int k = 0; k < fbLiveFieldCount; ++k) {
    const fbLiveField *f = &fbLiveFields[k];
    if (printed(sim, s, f) && strchr(f->field, '.') == NULL) {
      fputs(sep, out);
      print_field(sim, s, f, f->field, out);
      sep = ", ";
    }
  }
  fputs(",\n", out);
  for (int k = 0; k < fbLiveFieldCount; ++k) {
    const char *dot = strchr(fbLiveFields[k].field, '.');
    size_t n = dot ? (size_t)(dot - fbLiveFields[k].field) : 0;
    bool first = dot != NULL && printed(sim, s, &fbLiveFields[k]);
    for (int j = 0; j < k && first; ++j) {  // each table once, where its first printed field stands
      first = !printed(sim, s, &fbLiveFields[j]) || strncmp(fbLiveFields[j].field, fbLiveFields[k].field, n + 1) != 0;
    }
    if (!first) {
      continue;
    }
    fprintf(out, "%.*s = { ", (int)n, fbLiveFields[k].field);
    sep = "";
    for (int j = k; j < fbLiveFieldCount; ++j) {
      const fbLiveField *f = &fbLiveFields[j];
      if (printed(sim, s, f) && strncmp(f->field, fbLiveFields[k].field, n + 1) == 0) {
        fputs(sep, out);
        print_field(sim, s, f, f->field + n + 1, out);
        sep = ", ";
      }
    }
    fputs(" },\n", out);
  }
}

static void print_rule(const fbSim *sim, int s, int k, FILE *out)
{
  const fbRuleSlot *slot = &fbSim_World(sim)->species[s].rules[k];
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

void fbPanel_PrintLua(const fbSim *sim, FILE *out)
{
  const fbWorld *w = fbSim_World(sim);
  fprintf(out, "-- %s: species fields, rule weights and parameters at step %llu (paste over each species' own)\n",
          fbSim_Name(sim), (unsigned long long)w->step);
  for (int s = 0; s < w->species_count; ++s) {
    const fbSpecies *sp = &w->species[s];
    fprintf(out, "-- species \"%s\"\n", sp->name);
    print_species_fields(sim, s, out);
    fputs("rules = {\n", out);
    for (int k = 0; k < sp->rule_count; ++k) {
      print_rule(sim, s, k, out);
    }
    fputs("},\n", out);
  }
  fflush(out);
}
