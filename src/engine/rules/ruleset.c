// ruleset.c — a simulation's rules across its per-thread Lua states: load, reload and fall back, parameters, failures.
#include "ruleset.h"

#include "sandbox.h"

#include <lauxlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "names.h"
#include "paths.h"
#include "rule_module.h"

// Where modules and helpers are looked for, after a module's own folder: the scenario's rule
// folders, behaviours/ and behaviours/lib beside the scenario, and in the source tree.
static void search_path(fbRuleSet *rs)
{
  size_t used = 0;
  rs->search[0] = '\0';
  for (int d = 0; d < rs->dir_count; ++d) {
    used += (size_t)snprintf(rs->search + used, sizeof rs->search - used, "%s%s", used ? ";" : "", rs->dirs[d]);
  }
  static const char *const folders[] = {"behaviours", "behaviours/lib"};
  for (int f = 0; f < 2 && used < sizeof rs->search; ++f) {
    char dir[512];
    fbFilePath_Resolve(rs->scenario, folders[f], dir, sizeof dir);
    used += (size_t)snprintf(rs->search + used, sizeof rs->search - used, "%s%s", used ? ";" : "", dir);
  }
}

bool fbRuleSet_Open(fbRuleSet *rs, int threads, size_t memory_limit, int timeout_ms, const fbWorld *w,
                    const char *scenario, const char (*dirs)[512], int dir_count, char *err, size_t errlen)
{
  memset(rs, 0, sizeof *rs);
  rs->threads = threads < 1 ? 1 : threads;
  rs->runners = calloc((size_t)rs->threads, sizeof *rs->runners);
  rs->info = calloc(FB_MAX_SPECIES, sizeof *rs->info);
  FB_ASSERT(rs->runners != NULL && rs->info != NULL);
  snprintf(rs->scenario, sizeof rs->scenario, "%s", scenario);
  rs->dir_count = dir_count < FB_MAX_RULE_DIRS ? dir_count : FB_MAX_RULE_DIRS;
  memcpy(rs->dirs, dirs, sizeof rs->dirs[0] * (size_t)rs->dir_count);
  search_path(rs);
  fbFilePath_Resolve(rs->scenario, "behaviours/lib/steering.lua", rs->library, sizeof rs->library);
  for (int t = 0; t < rs->threads; ++t) {
    if (!fbRules_Open(&rs->runners[t], memory_limit, timeout_ms, w, rs->search)) {
      snprintf(err, errlen, "cannot create a Lua state");
      return false;
    }
    if (!fbRuleModule_LoadLibrary(&rs->runners[t], rs->library, err, errlen)) {
      return false;
    }
  }
  return true;
}

static void text_free(fbText *t)
{
  free(t->text);
  t->text = NULL;
  t->len = 0;
}

// dst becomes a copy of src (of nothing when src has no text).
static void text_copy(fbText *dst, const fbText *src)
{
  if (dst == src) {
    return;
  }
  text_free(dst);
  if (src->text != NULL) {
    dst->text = malloc(src->len + 1);
    FB_ASSERT(dst->text != NULL);
    memcpy(dst->text, src->text, src->len + 1);
    dst->len = src->len;
  }
}

static bool text_equal(const fbText *a, const fbText *b)
{
  return a->text != NULL && b->text != NULL && a->len == b->len && memcmp(a->text, b->text, a->len) == 0;
}

static void free_texts(fbRuleSet *rs)
{
  for (int s = 0; rs->info != NULL && s < FB_MAX_SPECIES; ++s) {
    for (int k = 0; k < FB_MAX_RULES; ++k) {
      text_free(&rs->info[s][k].source);
      text_free(&rs->info[s][k].good);
      text_free(&rs->info[s][k].rejected);
    }
  }
}

void fbRuleSet_Close(fbRuleSet *rs)
{
  for (int t = 0; t < rs->threads && rs->runners != NULL; ++t) {
    fbRules_Close(&rs->runners[t]);
  }
  free_texts(rs);
  free(rs->runners);
  free(rs->info);
  memset(rs, 0, sizeof *rs);
}

void fbRuleSet_Profile(fbRuleSet *rs, fbProfile *p)
{
  for (int t = 0; t < rs->threads; ++t) {
    rs->runners[t].profile = p != NULL && p->on ? &p->threads[t] : NULL;
    rs->runners[t].clock_ns = p != NULL ? p->clock_ns : 0.0;
  }
}

void fbRuleSet_CaptureFrames(fbRuleSet *rs, bool on)
{
  for (int t = 0; t < rs->threads; ++t) {
    fbRules_CaptureFrames(&rs->runners[t], on);
  }
}

const fbRuleFrame *fbRuleSet_FailedFrame(const fbRuleSet *rs)
{
  for (int t = 0; t < rs->threads; ++t) {
    const fbRuleFrame *f = rs->runners[t].frame;
    if (f != NULL && f->captured) {
      return f;
    }
  }
  return NULL;
}

void fbRuleSet_Bind(fbRuleSet *rs, fbWorld *w, const fbPerceptionInput *in, const fbAggregates *agg,
                    fbNeighbourList *lists, fbCommandQueue *queues)
{
  for (int t = 0; t < rs->threads; ++t) {
    fbRuleContext *c = &rs->runners[t].ctx;
    c->world = w;
    c->perception = in;
    c->agg = agg;
    c->list = &lists[t];
    c->commands = &queues[t];
  }
}

bool fbRuleSet_SetSpecies(fbRuleSet *rs, const fbWorld *w, int s, char *err, size_t errlen)
{
  for (int t = 0; t < rs->threads; ++t) {
    if (!fbRuleModule_SetSpecies(&rs->runners[t], w, s, err, errlen)) {
      return false;
    }
  }
  return true;
}

// Appends every identifier that follows a '.' in the file's code (a.x, a.leader, p.divisor, ...)
// to `out`, ';'-separated, and says whether the code names the steering library. Comments are
// left out: a view key named only in a comment would be filled for nothing.
static bool scan_file_names(const char *path, char *out, size_t len, size_t *used)
{
  char why[256];
  FILE *f = fbFilePath_OpenRegular(path, FB_MAX_SCRIPT_BYTES, NULL, why, sizeof why);
  if (f == NULL) {
    return false;
  }
  bool uses_library = false;
  char line[4096];
  while (fgets(line, sizeof line, f) != NULL) {
    char *comment = strstr(line, "--");
    if (comment != NULL) {
      *comment = '\0';
    }
    uses_library = uses_library || strstr(line, "steering") != NULL;
    for (const char *c = strchr(line, '.'); c != NULL; c = strchr(c + 1, '.')) {
      const char *name = c + 1;
      size_t n = 0;
      while (name[n] == '_' || (name[n] >= 'a' && name[n] <= 'z') || (name[n] >= 'A' && name[n] <= 'Z') ||
             (n > 0 && name[n] >= '0' && name[n] <= '9')) {
        ++n;
      }
      if (n > 0 && n < FB_NAME_LEN && *used + n + 2 < len) {
        *used += (size_t)snprintf(out + *used, len - *used, "%.*s;", (int)n, name);
      }
    }
  }
  fclose(f);
  return uses_library;
}

// The names a rule's view is primed with: those of its own file, and where it calls the steering
// library, those of the library too (its functions read a.vx, a.hx, ... of the view passed in).
// Priming only saves the first steps' regeneration of the view filler; a name missed here is
// still found when first read.
static void scan_names(const char *path, const char *library, char *out, size_t len)
{
  out[0] = '\0';
  size_t used = 0;
  if (scan_file_names(path, out, len, &used) && library[0] != '\0') {
    scan_file_names(library, out, len, &used);
  }
}

// "scripts/x.lua: species 'boid' rule 'cohesion'": how load messages name a rule.
static void rule_what(const fbRuleSet *rs, const fbWorld *w, int s, int k, char *out, size_t len)
{
  snprintf(out, len, "%s: species '%s' rule '%s'", rs->scenario[0] ? rs->scenario : "(world built in C)",
           w->species[s].name, fbRuleDef_Name(&rs->info[s][k].def));
}

static bool load_text(fbRuleSet *rs, fbWorld *w, int s, int k, const fbText *text, bool trial, char *err,
                      size_t errlen);

/*
 * During a scenario reload, a rule file that does not load (broken, emptied, half-saved) must not
 * refuse the whole save: the rule loads from the last good version the running rules hold for
 * the same file, and keeps the file's error, as a failed save of the rule alone would. False (the
 * save refused) when there is no such version: a new rule, or a file never loaded.
 */
static bool keep_previous_version(fbRuleSet *rs, fbWorld *w, int s, int k, const fbText *failed, const char *err)
{
  fbRuleInfo *info = &rs->info[s][k];
  const fbRuleInfo *old = NULL;
  for (int os = 0; rs->previous != NULL && old == NULL && os < FB_MAX_SPECIES; ++os) {
    for (int j = 0; j < FB_MAX_RULES; ++j) {
      const fbRuleInfo *o = &rs->previous->info[os][j];
      if (o->good.text != NULL && strcmp(o->path, info->path) == 0) {
        old = o;
        break;
      }
    }
  }
  char why[2048];
  if (old == NULL || !load_text(rs, w, s, k, &old->good, false, why, sizeof why)) {
    return false;
  }
  text_copy(&info->source, &old->good);
  text_copy(&info->good, &old->good);
  if (failed->text != NULL) {
    text_copy(&info->rejected, failed);
  }
  char path[sizeof info->path];  // a copy: GCC cannot tell the two members of *info apart
  memcpy(path, info->path, sizeof path);
  snprintf(info->error, sizeof info->error, "%.1800s\n(the last good version of %.200s keeps running)", err, path);
  fbLog(FB_LOG_WARNING, "%s does not load; its last good version keeps running: %s", path, err);
  return true;
}

bool fbRuleSet_Load(fbRuleSet *rs, fbWorld *w, int s, int k, const fbRuleDef *def, const char *where, char *err,
                    size_t errlen)
{
  fbRuleInfo *info = &rs->info[s][k];
  memset(info, 0, sizeof *info);
  info->def = *def;
  w->species[s].rules[k] = fbRuleSlot_FromDef(def);
  if (def->native != NULL) {
    return true;
  }
  fbFilePath_ResolveRule(rs->dirs, rs->dir_count, rs->scenario, def->module, info->path, sizeof info->path);
  if (fbFilePath_Exists(info->path) && !fbFilePath_IsFile(info->path)) {
    snprintf(err, errlen, "%s.rule: %s: not a regular file", where, info->path);
    return false;
  }
  if (!fbFilePath_IsFile(info->path)) {
    char folders[2048], closest[FB_NAME_LEN];
    fbFilePath_RuleFolders(rs->dirs, rs->dir_count, rs->scenario, folders, sizeof folders);
    fbFilePath_ClosestRule(rs->dirs, rs->dir_count, rs->scenario, def->module, closest, sizeof closest);
    snprintf(err, errlen, "%s.rule: unknown rule '%s' (no %s.lua in %s)%s%s%s", where, def->module, def->module,
             folders, closest[0] ? "; did you mean '" : "", closest, closest[0] ? "'?" : "");
    return false;
  }
  char what[768];
  rule_what(rs, w, s, k, what, sizeof what);
  scan_names(info->path, rs->library, info->names, sizeof info->names);
  fbText text = {0};
  text.text = fbSandbox_ReadFile(info->path, &text.len, err, errlen);
  fbRuleSource src = {info->path, text.text, text.len};
  bool ok = text.text != NULL;
  for (int t = 0; ok && t < rs->threads; ++t) {
    ok = fbRuleModule_Load(&rs->runners[t], w, s, k, &src, def, what, t == 0 ? &info->specs : NULL, err, errlen);
  }
  if (!ok) {
    bool kept = keep_previous_version(rs, w, s, k, &text, err);
    text_free(&text);
    return kept;
  }
  info->source = text;
  text_copy(&info->good, &info->source);
  return true;
}

void fbRuleSet_PrimeViews(fbRuleSet *rs, const fbWorld *w)
{
  for (int s = 0; s < w->species_count; ++s) {
    for (int k = 0; k < w->species[s].rule_count; ++k) {
      for (int t = 0; t < rs->threads; ++t) {
        fbAgentViews_Prime(&rs->runners[t].views, w, s, k, rs->info[s][k].names);
      }
    }
  }
}

/*
 * One file, one message: several species may use the same rule file, and a save reloads it for
 * each. A failure of the file is told for the first of them in a step; the others are marked as
 * told (their info->error still holds the message for the window).
 */
static bool told_failure(fbRuleSet *rs, const fbWorld *w, const char *path)
{
  bool told = false;
  for (int s = 0; s < w->species_count; ++s) {
    for (int k = 0; k < w->species[s].rule_count; ++k) {
      fbRuleInfo *other = &rs->info[s][k];
      if (strcmp(other->path, path) == 0) {
        told = told || other->failure_told == w->step + 1;
        other->failure_told = w->step + 1;
      }
    }
  }
  return told;
}

// "reloaded FILE (species 'boid' rule 'cohesion', species 'hawk' rule 'cohesion') at step N", once
// for every species that runs the file's new version, when the first of them settles.
static void tell_reload(fbRuleSet *rs, const fbWorld *w, int s0, int k0)
{
  const fbRuleInfo *first = &rs->info[s0][k0];
  char who[1024];
  size_t used = 0;
  who[0] = '\0';
  for (int s = 0; s < w->species_count; ++s) {
    for (int k = 0; k < w->species[s].rule_count; ++k) {
      fbRuleInfo *info = &rs->info[s][k];
      if (info->reload_untold && strcmp(info->path, first->path) == 0 && used < sizeof who) {
        used += (size_t)snprintf(who + used, sizeof who - used, "%sspecies '%s' rule '%s'", used ? ", " : "",
                                 w->species[s].name, fbRuleDef_Name(&info->def));
        info->reload_untold = (info == first);  // the first is cleared last: its path is read above
      }
    }
  }
  fbLog(FB_LOG_INFO, "reloaded %s (%s) at step %llu", first->path, who, (unsigned long long)first->reload_step);
  rs->info[s0][k0].reload_untold = false;
}

bool fbRuleSet_Reload(fbRuleSet *rs, fbWorld *w, int s, int k)
{
  fbRuleInfo *info = &rs->info[s][k];
  fbRuleSlot *slot = &w->species[s].rules[k];
  if (access(info->path, R_OK) != 0) {
    char path[sizeof info->path];  // a copy: GCC cannot tell the two members of *info apart
    memcpy(path, info->path, sizeof path);
    snprintf(info->error, sizeof info->error, "%.500s: the file is gone; its last version keeps running", path);
    if (!told_failure(rs, w, info->path)) {
      fbLog(FB_LOG_WARNING, "%s", info->error);
    }
    return false;
  }
  char what[768], err[2048];
  rule_what(rs, w, s, k, what, sizeof what);
  fbText text = {0};
  text.text = fbSandbox_ReadFile(info->path, &text.len, err, sizeof err);
  int loaded = 0;
  bool ok = text.text != NULL;
  fbRuleSource src = {info->path, text.text, text.len};
  for (; ok && loaded < rs->threads; ++loaded) {
    ok = fbRuleModule_Reload(&rs->runners[loaded], w, s, k, &src, &info->def, what, err, sizeof err);
  }
  if (!ok) {
    for (int t = 0; t < loaded - 1; ++t) {
      fbRuleModule_Fallback(&rs->runners[t], s, k);  // the states that took it give it back
    }
    text_free(&info->rejected);
    info->rejected = text;
    snprintf(info->error, sizeof info->error, "%.2000s", err);
    if (!told_failure(rs, w, info->path)) {
      fbLog(FB_LOG_WARNING, "reload failed, the last good version keeps running: %s", err);
    }
    return false;
  }
  // As in every state: the version replaced is the fallback, the new one on trial.
  text_copy(&info->good, &info->source);
  text_free(&info->source);
  info->source = text;
  text_free(&info->rejected);
  slot->disabled = false;
  slot->on_trial = true;
  info->error[0] = '\0';
  scan_names(info->path, rs->library, info->names, sizeof info->names);
  fbRuleSet_PrimeViews(rs, w);
  info->reload_untold = true;  // told once it has run a step (settle_trials)
  info->reload_step = w->step;
  return true;
}

int fbRuleSet_Find(const fbRuleSet *rs, const fbWorld *w, int s, const char *name)
{
  for (int k = 0; k < w->species[s].rule_count; ++k) {
    if (strcmp(fbRuleDef_Name(&rs->info[s][k].def), name) == 0) {
      return k;
    }
  }
  return -1;
}

/*
 * A value is applied only once everything a load would check agrees: the declared kind and range,
 * then the module's validate with the value in place. A refused value changes nothing, so the rule
 * runs on with its last good one (applying it first would let a bad value switch the rule off at
 * the next step, and going back would not switch it on again). An integer parameter stays a Lua
 * integer while the value is whole.
 */
bool fbRuleSet_SetValue(fbRuleSet *rs, const fbWorld *w, int s, int k, const fbParamDef *p, char *msg, size_t len)
{
  const fbParamSpec *spec = fbParams_Find(&rs->info[s][k].specs, p->name);
  const char *rule = fbRuleDef_Name(&rs->info[s][k].def);
  if (spec == NULL) {
    char names[512];
    fbParams_Names(&rs->info[s][k].specs, names, sizeof names);
    snprintf(msg, len, "rule '%s' has no parameter '%s' (it has: %s)", rule, p->name, names);
    return false;
  }
  bool number = spec->kind == FB_VALUE_NUMBER || spec->kind == FB_VALUE_INTEGER;
  bool given_number = p->kind == FB_VALUE_NUMBER || p->kind == FB_VALUE_INTEGER;
  if (number != given_number || (!number && spec->kind != p->kind)) {
    snprintf(msg, len, "%s.%s: expected a %s, got a %s", rule, p->name, fbParams_KindName(spec->kind),
             fbParams_KindName(p->kind));
    return false;
  }
  char why[1024];
  fbParamDef value = *p;
  if (number && !fbParams_CheckNumber(spec, value.number, why, sizeof why)) {
    snprintf(msg, len, "%s.%s: %s", rule, p->name, why);
    return false;
  }
  if (!number && spec->kind == FB_VALUE_STRING &&
      !fbName_CheckParamText(p->text, strnlen(p->text, sizeof p->text), why, sizeof why)) {
    snprintf(msg, len, "%s.%s: %s", rule, p->name, why);
    return false;
  }
  if (number) {
    bool integer = spec->kind == FB_VALUE_INTEGER && value.number == floor(value.number) &&
                   fabs(value.number) < 9007199254740992.0;
    value.kind = integer ? FB_VALUE_INTEGER : FB_VALUE_NUMBER;
  }
  fbValidateVerdict verdict = fbRuleModule_Check(&rs->runners[0], w, s, k, NULL, &value, why, sizeof why);
  if (verdict != FB_VALIDATE_ACCEPTS) {
    // A refusal names the parameter ("cohesion.divisor: ..."); a failure is the rule's own
    // ("cohesion: validate failed: ...").
    snprintf(msg, len, "%s%s%s", rule, verdict == FB_VALIDATE_REFUSES ? "." : ": ", why);
    return false;
  }
  for (int t = 0; t < rs->threads; ++t) {
    fbRuleModule_SetParam(&rs->runners[t], s, k, &value);
  }
  return true;
}

bool fbRuleSet_SetParam(fbRuleSet *rs, const fbWorld *w, int s, int k, const char *name, double value, char *msg,
                        size_t len)
{
  const fbParamSpec *spec = fbParams_Find(&rs->info[s][k].specs, name);
  fbParamDef p = {.kind = FB_VALUE_NUMBER, .number = value};
  if (spec == NULL || (spec->kind != FB_VALUE_NUMBER && spec->kind != FB_VALUE_INTEGER) ||
      strlen(name) >= sizeof p.name) {
    char names[512];
    fbParams_Names(&rs->info[s][k].specs, names, sizeof names);
    snprintf(msg, len, "rule '%s' has no numeric parameter '%s' (it has: %s)", fbRuleDef_Name(&rs->info[s][k].def),
             name, names);
    return false;
  }
  snprintf(p.name, sizeof p.name, "%s", name);
  return fbRuleSet_SetValue(rs, w, s, k, &p, msg, len);
}

bool fbRuleSet_CheckSpecies(fbRuleSet *rs, const fbWorld *w, int s, const fbSpecies *sp, char *msg, size_t len)
{
  for (int k = 0; k < w->species[s].rule_count; ++k) {
    char why[1024];
    if (rs->info[s][k].path[0] != '\0' &&
        fbRuleModule_Check(&rs->runners[0], w, s, k, sp, NULL, why, sizeof why) != FB_VALIDATE_ACCEPTS) {
      snprintf(msg, len, "rule '%s' refuses it: %s", fbRuleDef_Name(&rs->info[s][k].def), why);
      return false;
    }
  }
  return true;
}

bool fbRuleSet_ReloadAll(fbRuleSet *rs, fbWorld *w)
{
  char err[2048];
  for (int t = 0; t < rs->threads; ++t) {
    if (!fbRuleModule_LoadLibrary(&rs->runners[t], rs->library, err, sizeof err)) {
      fbLog(FB_LOG_WARNING, "reload failed, the last good version keeps running: %s", err);
      return false;  // modules loaded before keep their copy of the last good library
    }
  }
  bool ok = true;
  for (int s = 0; s < w->species_count; ++s) {
    for (int k = 0; k < w->species[s].rule_count; ++k) {
      ok = (rs->info[s][k].path[0] == '\0' || fbRuleSet_Reload(rs, w, s, k)) && ok;
    }
  }
  return ok;
}

int fbRuleSet_ListValues(const fbRuleSet *rs, int s, int k, fbParamDef *values, int max)
{
  return fbRuleModule_ListValues(&rs->runners[0], s, k, values, max);
}

int fbRuleSet_ListParams(const fbRuleSet *rs, int thread, int s, int k, char names[][FB_NAME_LEN], double *values,
                         int max)
{
  return fbRuleModule_ListParams(&rs->runners[thread], s, k, names, values, max);
}

void fbRuleSet_WriteParams(const fbRuleSet *rs, int s, int k, FILE *out)
{
  fbRuleModule_WriteParams(&rs->runners[0], s, k, out);
}

void fbRuleSet_Run(fbRuleSet *rs, int thread, int begin, int end) { fbRules_Run(&rs->runners[thread], begin, end); }

/*
 * On one thread, a rule that fails at agent m is skipped for every agent after m in that step.
 * On several, a later worker may already have run it for its agents. So after a step with a
 * failure, each later worker runs its range again with that rule skipped from the start (in
 * worker order, so a failure found during a replay reaches the workers after it): the step then
 * ends exactly as on one thread. Only steps where a rule failed pay for this.
 */
static void replay_after_failures(fbRuleSet *rs, fbWorld *w, const int *begins, const int *ends)
{
  bool skip[FB_MAX_SPECIES][FB_MAX_RULES];
  int first[FB_MAX_SPECIES][FB_MAX_RULES];
  for (int s = 0; s < FB_MAX_SPECIES; ++s) {
    for (int k = 0; k < FB_MAX_RULES; ++k) {
      first[s][k] = INT32_MAX;
    }
  }
  fbAgents *a = &w->agents;
  for (int t = 0; t < rs->threads; ++t) {
    int begin = begins[t], end = ends[t];
    bool replay = false;
    for (int s = 0; s < FB_MAX_SPECIES; ++s) {
      for (int k = 0; k < FB_MAX_RULES; ++k) {
        skip[s][k] = first[s][k] < begin;
        replay = replay || skip[s][k];
      }
    }
    fbRuleRunner *r = &rs->runners[t];
    if (replay) {
      r->ctx.commands->count = 0;
      for (int f = 0; f < w->field_count; ++f) {
        memcpy(a->field_next[f] + begin, a->field[f] + begin, sizeof(double) * (size_t)(end - begin));
      }
      fbRules_RunSkipping(r, begin, end, (const bool(*)[FB_MAX_RULES])skip);
    }
    for (int q = 0; q < r->failure_count; ++q) {
      const fbRuleFailure *f = &r->failures[q];
      if (f->rule >= 0 && f->agent < first[f->species][f->rule]) {
        first[f->species][f->rule] = f->agent;
      }
    }
  }
}

// A reloaded rule that failed goes back to its last good version in every Lua state.
static bool fall_back(fbRuleSet *rs, fbWorld *w, int s, int k, const char *message)
{
  fbRuleSlot *slot = &w->species[s].rules[k];
  fbRuleInfo *info = &rs->info[s][k];
  bool ok = slot->on_trial;
  for (int t = 0; ok && t < rs->threads; ++t) {
    ok = fbRuleModule_Fallback(&rs->runners[t], s, k);
  }
  if (!ok) {
    return false;
  }
  slot->on_trial = false;
  text_free(&info->rejected);
  info->rejected = info->source;  // the text that failed, not to be read again by a scenario reload
  info->source = (fbText){0};
  text_copy(&info->source, &info->good);
  char path[sizeof info->path];  // a copy: GCC cannot tell the two members of *info apart
  memcpy(path, info->path, sizeof path);
  snprintf(info->error, sizeof info->error, "%.1800s\n(the last good version of %.200s keeps running)", message, path);
  info->reload_untold = false;  // never told as reloaded: it failed at once
  if (!told_failure(rs, w, path)) {
    fbLog(FB_LOG_WARNING, "%s: the new version failed; the last good one keeps running:\n%s", path, message);
  }
  return true;
}

// Rules reloaded before this step ran it without failing: the versions they replaced can go.
static void settle_trials(fbRuleSet *rs, fbWorld *w)
{
  for (int s = 0; s < w->species_count; ++s) {
    for (int k = 0; k < w->species[s].rule_count; ++k) {
      fbRuleSlot *slot = &w->species[s].rules[k];
      if (slot->on_trial) {
        text_copy(&rs->info[s][k].good, &rs->info[s][k].source);  // it has proved itself
      }
      if (rs->info[s][k].reload_untold) {
        tell_reload(rs, w, s, k);
      }
      for (int t = 0; slot->on_trial && t < rs->threads; ++t) {
        fbRuleModule_Settle(&rs->runners[t], s, k);
      }
      slot->on_trial = false;
    }
  }
}

/*
 * A failing rule is switched off for its species from the next step on, with one message (or,
 * freshly reloaded, goes back to its last good version). When several workers saw it fail, the
 * failure at the lowest agent index is the one reported, so the message does not depend on the
 * thread count.
 */
static bool switch_off_failed_rules(fbRuleSet *rs, fbWorld *w)
{
  bool any = false;
  for (int t = 0; t < rs->threads; ++t) {
    const fbRuleRunner *r = &rs->runners[t];
    for (int q = 0; q < r->failure_count; ++q) {
      const fbRuleFailure *f = &r->failures[q];
      fbRuleSlot *slot = &w->species[f->species].rules[f->rule];
      fbRuleInfo *info = &rs->info[f->species][f->rule];
      if (slot->disabled || fall_back(rs, w, f->species, f->rule, f->message)) {
        continue;
      }
      slot->disabled = true;
      any = true;
      if (rs->switched_off++ == 0) {
        snprintf(rs->first_off, sizeof rs->first_off, "rule '%s' of species '%s' switched off at step %llu",
                 fbRuleDef_Name(&info->def), w->species[f->species].name, (unsigned long long)w->step);
      }
      // Some errors (out of memory) carry no position: name the file so the message says where.
      const char *base = strrchr(info->path, '/') ? strrchr(info->path, '/') + 1 : info->path;
      bool named = strstr(f->message, base) != NULL;
      snprintf(info->error, sizeof info->error, "%.500s%s%.1000s", named ? "" : info->path, named ? "" : ": ",
               f->message);
      fbLog(FB_LOG_WARNING, "rule '%s' of species '%s' switched off at step %llu: %s",
            fbRuleDef_Name(&info->def), w->species[f->species].name, (unsigned long long)w->step, info->error);
    }
  }
  return any;
}

bool fbRuleSet_Finish(fbRuleSet *rs, fbWorld *w, const int *begin, const int *end)
{
  bool failed = false;
  for (int t = 0; t < rs->threads; ++t) {
    failed = failed || rs->runners[t].failure_count > 0;
  }
  if (failed && rs->threads > 1) {
    replay_after_failures(rs, w, begin, end);
  }
  bool off = failed && switch_off_failed_rules(rs, w);
  settle_trials(rs, w);
  return off;
}

void fbRuleSet_TakeWants(fbRuleSet *rs, uint32_t *list, uint32_t *nearest)
{
  for (int t = 0; t < rs->threads; ++t) {
    fbRuleContext *c = &rs->runners[t].ctx;
    *list |= c->wants_list;
    *nearest |= c->wants_nearest;
    c->wants_list = c->wants_nearest = 0;
  }
}

void fbRuleSet_Inspect(fbRuleSet *rs, int index)
{
  // The agent may sit in another thread's range than last step: only this step's outputs count.
  for (int t = 0; t < rs->threads; ++t) {
    rs->runners[t].inspect = index;
    memset(rs->runners[t].inspect_ran, 0, sizeof rs->runners[t].inspect_ran);
  }
}

void fbRuleSet_Trace(fbRuleSet *rs, void (*trace)(const char *text, void *ud), void *ud)
{
  for (int t = 0; t < rs->threads; ++t) {
    rs->runners[t].trace = (fbRuleTrace){trace, ud};
  }
}

void fbRuleSet_ForgetInspect(fbRuleSet *rs)
{
  for (int t = 0; t < rs->threads; ++t) {
    rs->runners[t].inspect = -1;
    memset(rs->runners[t].inspect_ran, 0, sizeof rs->runners[t].inspect_ran);
  }
}

bool fbRuleSet_InspectOutput(const fbRuleSet *rs, int k, fbVec2 *out)
{
  for (int t = 0; t < rs->threads; ++t) {
    const fbRuleRunner *r = &rs->runners[t];
    if (r->inspect >= 0 && k >= 0 && k < FB_MAX_RULES && r->inspect_ran[k]) {
      *out = r->inspect_out[k];
      return true;
    }
  }
  return false;
}

void fbRuleSet_MeasureAllocation(fbRuleSet *rs, int calls)
{
  for (int t = 0; t < rs->threads; ++t) {
    rs->runners[t].alloc_calls = calls;
    rs->runners[t].alloc_bytes = -1.0;
  }
}

// The runner that ran the inspected agent measured it; the others kept -1.
double fbRuleSet_Allocated(const fbRuleSet *rs)
{
  double bytes = -1.0;
  for (int t = 0; t < rs->threads; ++t) {
    if (rs->runners[t].alloc_bytes >= 0.0) {
      bytes = rs->runners[t].alloc_bytes;
    }
  }
  return bytes;
}

// Rule k of species s in every state from text (on trial with the current version as fallback if
// trial), with the specs of t = 0; false with the message in err.
static bool load_text(fbRuleSet *rs, fbWorld *w, int s, int k, const fbText *text, bool trial, char *err,
                      size_t errlen)
{
  fbRuleInfo *info = &rs->info[s][k];
  char what[768];
  rule_what(rs, w, s, k, what, sizeof what);
  fbRuleSource src = {info->path, text->text, text->len};
  bool ok = true;
  for (int t = 0; ok && t < rs->threads; ++t) {
    ok = trial ? fbRuleModule_Reload(&rs->runners[t], w, s, k, &src, &info->def, what, err, errlen)
               : fbRuleModule_Load(&rs->runners[t], w, s, k, &src, &info->def, what, t == 0 ? &info->specs : NULL,
                                   err, errlen);
  }
  return ok;
}

// The rule of old species os that is fresh's rule k of species s in the same file; -1 if none.
static int same_rule(const fbRuleSet *fresh, int s, int k, const fbRuleSet *old, const fbWorld *ow, int os)
{
  const fbRuleInfo *f = &fresh->info[s][k];
  for (int j = 0; j < ow->species[os].rule_count; ++j) {
    const fbRuleInfo *o = &old->info[os][j];
    if (strcmp(fbRuleDef_Name(&o->def), fbRuleDef_Name(&f->def)) == 0 && strcmp(o->path, f->path) == 0 &&
        f->path[0] != '\0') {
      return j;
    }
  }
  return -1;
}

static void keep_rule(fbRuleSet *fresh, fbWorld *fw, int s, int k, const fbRuleInfo *o)
{
  fbRuleInfo *f = &fresh->info[s][k];
  char err[2048];
  if (text_equal(&f->source, &o->rejected) && text_equal(&o->source, &o->good)) {
    // The file still holds the version that failed: the last good one goes on running.
    if (load_text(fresh, fw, s, k, &o->good, false, err, sizeof err)) {
      text_copy(&f->source, &o->good);
      text_copy(&f->good, &o->good);
      text_copy(&f->rejected, &o->rejected);
      memcpy(f->error, o->error, sizeof f->error);
      fbLog(FB_LOG_WARNING, "%s still holds the version that failed; its last good version keeps running", f->path);
    }
  } else if (o->good.text != NULL && !text_equal(&f->source, &o->good)) {
    // Another version than the last good one: on trial, with the last good one to fall back to.
    fbText disk = {0};
    text_copy(&disk, &f->source);
    if (load_text(fresh, fw, s, k, &o->good, false, err, sizeof err) &&
        load_text(fresh, fw, s, k, &disk, true, err, sizeof err)) {
      text_copy(&f->good, &o->good);
      fw->species[s].rules[k].on_trial = true;
    }
    text_free(&disk);
  }
}

void fbRuleSet_KeepLastGood(fbRuleSet *fresh, fbWorld *fresh_world, const fbRuleSet *old, const fbWorld *old_world)
{
  for (int s = 0; s < fresh_world->species_count; ++s) {
    int os = fbWorld_FindSpecies(old_world, fresh_world->species[s].name);
    for (int k = 0; os >= 0 && k < fresh_world->species[s].rule_count; ++k) {
      int j = same_rule(fresh, s, k, old, old_world, os);
      if (j >= 0) {
        keep_rule(fresh, fresh_world, s, k, &old->info[os][j]);
      }
    }
  }
}

// Swaps the rules of a reloaded scenario in; what the run lost before the reload stays on record.
void fbRuleSet_Swap(fbRuleSet *a, fbRuleSet *b)
{
  fbRuleSet t = *a;
  *a = *b;
  *b = t;
  int lost = a->switched_off + b->switched_off;
  if (a->switched_off == 0 && b->switched_off > 0) {
    memcpy(a->first_off, b->first_off, sizeof a->first_off);
  }
  a->switched_off = b->switched_off = lost;
}

uint64_t fbRuleSet_Allocations(const fbRuleSet *rs)
{
  uint64_t n = 0;
  for (int t = 0; t < rs->threads; ++t) {
    n += rs->runners[t].host.allocations;
  }
  return n;
}
