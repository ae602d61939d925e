// state.c — a run's state written as bytes and read back: the snapshot, and the file with its checked header.
#define _POSIX_C_SOURCE 200809L
#include "state.h"

#include "sim_internal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hook_state.h"
#include "log.h"
#include "params.h"
#include "paths.h"
#include "schema.h"
#include "sha256.h"

#define BYTE_ORDER_MARK 0x01020304u
#define BODY_MARK 0x59444f42u  // "BODY"

// ---- the snapshot: writing ----------------------------------------------------------------------

/*
 * A rule's declared parameters as they are now, by name (sorted): a hook's fb.set_param or the
 * panel may have changed them since the scenario set them, and a run resumed without them would
 * not go on as the saved one did. Kind, number (numbers, integers, booleans) and text (strings).
 */
static void write_params(fbBytes *b, const fbSim *sim, int s, int k)
{
  fbParamDef values[2 * FB_MAX_PARAM_SPECS];
  int n = fbRuleSet_ListValues(&sim->rules, s, k, values, 2 * FB_MAX_PARAM_SPECS), declared = 0;
  for (int q = 0; q < n; ++q) {
    if (fbParams_Find(&sim->rules.info[s][k].specs, values[q].name) != NULL) {
      values[declared++] = values[q];
    }
  }
  fbBytes_U32(b, (uint32_t)declared);
  for (int q = 0; q < declared; ++q) {
    fbBytes_Str(b, values[q].name);
    fbBytes_U8(b, (uint8_t)values[q].kind);
    fbBytes_F64(b, values[q].number);
    fbBytes_Str(b, values[q].text);
  }
}

static void write_world(fbBytes *b, const fbSim *sim)
{
  const fbWorld *w = &sim->world;
  fbBytes_U32(b, BODY_MARK);
  fbBytes_U64(b, w->step);
  fbBytes_U32(b, w->next_id);
  fbBytes_U64(b, w->removed_total);
  fbBytes_U64(b, sim->catches);
  fbBytes_F64(b, w->input.x);
  fbBytes_F64(b, w->input.y);
  fbBytes_U8(b, w->input_held);
  fbBytes_U32(b, sim->keep_list);
  fbBytes_U32(b, sim->keep_nearest);
  fbBytes_U32(b, (uint32_t)w->species_count);
  for (int s = 0; s < w->species_count; ++s) {
    fbBytes_Str(b, w->species[s].name);
    fbBytes_U32(b, (uint32_t)w->species[s].rule_count);
    for (int k = 0; k < w->species[s].rule_count; ++k) {
      fbBytes_F64(b, w->species[s].rules[k].weight);
      write_params(b, sim, s, k);
    }
  }
  fbBytes_U32(b, (uint32_t)w->goal_count);
  for (int g = 0; g < w->goal_count; ++g) {
    fbBytes_Str(b, w->goals[g].name);
    fbBytes_F64(b, w->goals[g].p.x);
    fbBytes_F64(b, w->goals[g].p.y);
  }
}

static void write_paths(fbBytes *b, const fbPaths *ps)
{
  fbBytes_U32(b, (uint32_t)ps->count);
  for (int k = 0; k < ps->count; ++k) {
    const fbPath *p = &ps->items[k];
    fbBytes_Str(b, p->name);
    fbBytes_Blob(b, p->points, sizeof *p->points * (size_t)p->point_count);
    double object[7] = {p->s, p->speed, p->speed_override, p->p.x, p->p.y, p->tangent.x, p->tangent.y};
    fbBytes_Put(b, object, sizeof object);
  }
}

static void write_hooks(fbBytes *b, const fbHooks *h)
{
  fbBytes_Str(b, h->stop_label);
  fbBytes_U64(b, h->stop_step);
  fbBytes_U32(b, (uint32_t)h->failures);
  fbBytes_Str(b, h->first_failure);
  fbBytes_U32(b, (uint32_t)h->metric_count);
  for (int m = 0; m < h->metric_count; ++m) {
    fbBytes_U8(b, h->metric_off[m]);
  }
}

// The per-agent double arrays, in the order written (fields follow, by name).
static int agent_arrays(fbAgents *a, double **out)
{
  double *all[] = {a->px, a->py, a->vx, a->vy, a->hx, a->hy, a->ax, a->ay, a->fx, a->fy, a->dx, a->dy, a->energy};
  memcpy(out, all, sizeof all);
  return (int)(sizeof all / sizeof all[0]);
}

static void write_agents(fbBytes *b, fbWorld *w)
{
  fbAgents *a = &w->agents;
  size_t n = (size_t)a->count;
  fbBytes_U32(b, (uint32_t)a->count);
  double *arrays[16];
  int count = agent_arrays(a, arrays);
  for (int k = 0; k < count; ++k) {
    fbBytes_Put(b, arrays[k], sizeof(double) * n);
  }
  fbBytes_Put(b, a->id, sizeof(uint32_t) * n);
  fbBytes_Put(b, a->species, n);
  fbBytes_Put(b, a->active, n);
  fbBytes_Put(b, a->held, n);
  fbBytes_U32(b, (uint32_t)w->field_count);
  for (int f = 0; f < w->field_count; ++f) {
    fbBytes_Str(b, w->field_names[f]);
    fbBytes_Put(b, a->field[f], sizeof(double) * n);
    fbBytes_Put(b, a->field_next[f], sizeof(double) * n);
  }
}

bool fbState_Snapshot(fbSim *sim, fbBytes *out, char *err, size_t errlen)
{
  write_world(out, sim);
  write_paths(out, &sim->world.paths);
  write_hooks(out, &sim->hooks);
  write_agents(out, &sim->world);
  return fbHookState_Save(&sim->hooks, out, err, errlen);
}

// ---- the snapshot: reading ----------------------------------------------------------------------

static bool malformed(fbReader *r, const char *what, char *err, size_t errlen)
{
  snprintf(err, errlen, "the state is truncated or corrupt (in %s, at byte %zu of %zu)", what, r->at, r->len);
  return false;
}

/*
 * The checksum proves a file is the one written, not that its numbers are sane: a state written
 * by a buggy embedder, or edited by hand and re-hashed, must pass the checks a scenario and a
 * script's values pass at the door (finite, within FB_MAX_MAGNITUDE; flags 0 or 1; ids unique),
 * or a NaN would surface steps later blamed on an innocent rule. So the snapshot is read twice:
 * once checking every field and setting nothing, then setting; a refused state leaves the sim as
 * it was. Each message names the field ("agent 12 (id 40): position is not finite").
 */
static bool refuse(char *err, size_t errlen, const char *format, ...) __attribute__((format(printf, 3, 4)));
static bool refuse(char *err, size_t errlen, const char *format, ...)
{
  va_list args;
  va_start(args, format);
  vsnprintf(err, errlen, format, args);
  va_end(args);
  return false;
}

// A number a script could have handed over: finite, within FB_MAX_MAGNITUDE.
static bool sane(double v) { return fabs(v) <= FB_MAX_MAGNITUDE; }  // false for NaN too

// Why a number is refused, for messages.
static const char *not_sane(double v) { return isfinite(v) ? "is beyond 1e9" : "is not finite"; }

/*
 * Rule k's saved parameters; set again (unless keep_rules: rewind goes on with the rules as they
 * are now) where the rule still declares them. One at a time, a value may be refused only because
 * of another not yet set (validate's danger < comfort), so the refused ones are tried again while
 * any pass sets one. A rule file changed since the save may refuse a value or no longer have it:
 * the run goes on with the file's own (the load notes changed files), and the log says which.
 */
static bool read_params(fbReader *r, fbSim *sim, int s, int k, bool apply, char *err, size_t errlen)
{
  uint32_t count = fbReader_U32(r);
  fbParamDef saved[2 * FB_MAX_PARAM_SPECS];
  if (r->bad || count > 2 * FB_MAX_PARAM_SPECS) {
    return malformed(r, "the rules' parameters", err, errlen);
  }
  for (uint32_t q = 0; q < count; ++q) {
    fbParamDef *p = &saved[q];
    memset(p, 0, sizeof *p);
    fbReader_Str(r, p->name, sizeof p->name);
    uint8_t kind = fbReader_U8(r);
    p->number = fbReader_F64(r);
    fbReader_Str(r, p->text, sizeof p->text);
    if (r->bad || kind > FB_VALUE_STRING) {
      return malformed(r, "the rules' parameters", err, errlen);
    }
    p->kind = (fbValueKind)kind;
    if (p->kind != FB_VALUE_STRING && !isfinite(p->number)) {  // finite, as a rule's parameters must be
      return refuse(err, errlen, "species %s: rule %d: parameter %s is not finite (%g)", sim->world.species[s].name,
                    k + 1, p->name, p->number);
    }
  }
  bool set[2 * FB_MAX_PARAM_SPECS] = {false};
  char why[1024] = "";
  for (bool progress = apply; progress;) {
    progress = false;
    for (uint32_t q = 0; q < count; ++q) {
      if (!set[q] && fbRuleSet_SetValue(&sim->rules, &sim->world, s, k, &saved[q], why, sizeof why)) {
        set[q] = progress = true;
      }
    }
  }
  for (uint32_t q = 0; q < count && apply; ++q) {
    if (!set[q]) {
      fbRuleSet_SetValue(&sim->rules, &sim->world, s, k, &saved[q], why, sizeof why);
      fbLog(FB_LOG_WARNING, "the state's %s.%s was not set again: %s", sim->world.species[s].name, saved[q].name,
            why);
    }
  }
  return true;
}

// Maps the snapshot's species to the sim's, by name; sets their rules' weights and parameters
// only when apply.
static bool read_species(fbReader *r, fbSim *sim, bool keep_rules, bool apply, uint8_t map[256], char *err,
                         size_t errlen)
{
  const fbField *weight_field = fbSchema_Find(&fbRuleSchema, "weight");
  fbWorld *w = &sim->world;
  uint32_t count = fbReader_U32(r);
  if (count > FB_MAX_SPECIES) {
    return malformed(r, "species", err, errlen);
  }
  for (uint32_t s = 0; s < count; ++s) {
    char name[FB_NAME_LEN];
    fbReader_Str(r, name, sizeof name);
    uint32_t rules = fbReader_U32(r);
    int now = fbWorld_FindSpecies(w, name);
    if (r->bad || rules > FB_MAX_RULES) {
      return malformed(r, "species", err, errlen);
    }
    if (now < 0) {
      snprintf(err, errlen, "the state has species '%s', which the scenario does not", name);
      return false;
    }
    map[s] = (uint8_t)now;
    for (uint32_t k = 0; k < rules; ++k) {
      double weight = fbReader_F64(r);
      if (!r->bad && !(weight >= weight_field->lo && weight <= weight_field->hi)) {  // NaN fails too
        return refuse(err, errlen, "species %s: rule %u: weight %g is not a finite number within %g .. %g", name,
                      k + 1, weight, weight_field->lo, weight_field->hi);
      }
      bool here = apply && !keep_rules && (int)k < w->species[now].rule_count;
      if (here) {
        w->species[now].rules[k].weight = weight;
      }
      if (!read_params(r, sim, now, (int)k, here && !r->bad, err, errlen)) {
        return false;
      }
    }
  }
  memset(map + count, 0xff, 256 - count);
  return !r->bad || malformed(r, "species", err, errlen);
}

static bool read_world(fbReader *r, fbSim *sim, bool keep_rules, bool apply, uint8_t map[256], uint32_t *next_id_out,
                       char *err, size_t errlen)
{
  fbWorld *w = &sim->world;
  if (fbReader_U32(r) != BODY_MARK) {
    return malformed(r, "its start", err, errlen);
  }
  uint64_t step = fbReader_U64(r);
  uint32_t next_id = fbReader_U32(r);
  uint64_t removed_total = fbReader_U64(r), catches = fbReader_U64(r);
  fbVec2 input = {fbReader_F64(r), fbReader_F64(r)};
  uint8_t input_held = fbReader_U8(r);
  uint32_t keep_list = fbReader_U32(r), keep_nearest = fbReader_U32(r);
  if (r->bad) {
    return malformed(r, "the world", err, errlen);
  }
  if (!sane(input.x) || !sane(input.y)) {
    return refuse(err, errlen, "the player's input %s", not_sane(sane(input.x) ? input.y : input.x));
  }
  if (input_held > 1) {
    return refuse(err, errlen, "the player's input_held flag is %u, not 0 or 1", input_held);
  }
  if (next_id == 0) {
    return refuse(err, errlen, "the next agent id is 0 (ids start at 1)");
  }
  *next_id_out = next_id;
  if (apply) {
    w->step = step;
    w->next_id = next_id;
    w->removed_total = removed_total;
    sim->catches = catches;
    w->input = input;
    w->input_held = input_held != 0;
    sim->keep_list = keep_list;
    sim->keep_nearest = keep_nearest;
  }
  if (!read_species(r, sim, keep_rules, apply, map, err, errlen)) {
    return false;
  }
  uint32_t goals = fbReader_U32(r);
  for (uint32_t g = 0; g < goals && !r->bad; ++g) {
    char name[FB_NAME_LEN];
    fbReader_Str(r, name, sizeof name);
    fbVec2 p = {fbReader_F64(r), fbReader_F64(r)};
    if (!r->bad && (!sane(p.x) || !sane(p.y))) {
      return refuse(err, errlen, "goal %s: position %s", name, not_sane(sane(p.x) ? p.y : p.x));
    }
    int now = fbWorld_FindGoal(w, name);
    if (apply && now >= 0 && !r->bad) {
      w->goals[now].p = p;
    }
  }
  return !r->bad || malformed(r, "the world", err, errlen);
}

// A path keeps its place by name; control points moved since the scenario was read are moved again.
static void restore_path(fbPath *p, const fbVec2 *points, size_t n, const double object[7], double time)
{
  if (n == (size_t)p->point_count) {
    for (size_t k = 0; k < n; ++k) {
      if (memcmp(&points[k], &p->points[k], sizeof points[k]) != 0) {
        fbPath_MovePoint(p, (int)k, points[k], time);
      }
    }
  }
  p->s = object[0];
  p->speed = object[1];
  p->speed_override = object[2];
  p->p = fbV(object[3], object[4]);
  p->tangent = fbV(object[5], object[6]);
}

// A path's saved object: where it is along the path (finite: a path through points 1e9 apart is
// longer than 1e9) and how fast it goes, the rest sane numbers; a hook's speed is negative for none.
static bool check_path_object(const char *name, const double object[7], char *err, size_t errlen)
{
  static const char *what[7] = {"arc length", "speed", "hook's speed", "position", "position", "tangent", "tangent"};
  for (int k = 0; k < 7; ++k) {
    if (k == 0 ? !isfinite(object[k]) : !sane(object[k])) {
      return refuse(err, errlen, "path %s: %s %s", name, what[k], not_sane(object[k]));
    }
  }
  return true;
}

static bool read_paths(fbReader *r, fbWorld *w, bool apply, char *err, size_t errlen)
{
  uint32_t count = fbReader_U32(r);
  for (uint32_t k = 0; k < count && !r->bad; ++k) {
    char name[FB_NAME_LEN];
    fbReader_Str(r, name, sizeof name);
    size_t bytes;
    const unsigned char *data = fbReader_Blob(r, &bytes);
    double object[7];
    fbReader_Get(r, object, sizeof object);
    int now = fbPaths_Find(&w->paths, name);
    if (r->bad || bytes % sizeof(fbVec2) != 0 || bytes / sizeof(fbVec2) > FB_PATH_MAX_POINTS) {
      return malformed(r, "the paths", err, errlen);
    }
    fbVec2 points[FB_PATH_MAX_POINTS];
    memcpy(points, data, bytes);
    for (size_t q = 0; q < bytes / sizeof(fbVec2); ++q) {
      if (!sane(points[q].x) || !sane(points[q].y)) {
        return refuse(err, errlen, "path %s: point %zu %s", name, q + 1, not_sane(sane(points[q].x) ? points[q].y : points[q].x));
      }
    }
    if (!check_path_object(name, object, err, errlen)) {
      return false;
    }
    if (apply && now >= 0) {
      restore_path(&w->paths.items[now], points, bytes / sizeof(fbVec2), object, (double)w->step * w->dt);
    }
  }
  return !r->bad || malformed(r, "the paths", err, errlen);
}

static bool read_hooks(fbReader *r, fbHooks *h, bool apply, char *err, size_t errlen)
{
  char stop_label[sizeof h->stop_label], first_failure[sizeof h->first_failure];
  fbReader_Str(r, stop_label, sizeof stop_label);
  uint64_t stop_step = fbReader_U64(r);
  uint32_t failures = fbReader_U32(r);
  fbReader_Str(r, first_failure, sizeof first_failure);
  uint32_t metrics = fbReader_U32(r);
  if (r->bad || metrics > FB_MAX_METRICS) {
    return malformed(r, "the hooks", err, errlen);
  }
  if (failures > INT32_MAX) {
    return refuse(err, errlen, "the hooks' failure count %u is past %d", failures, INT32_MAX);
  }
  uint8_t off[FB_MAX_METRICS] = {0};
  for (uint32_t m = 0; m < metrics && m < FB_MAX_METRICS; ++m) {  // the bound again, for GCC's overflow check
    off[m] = fbReader_U8(r);
    if (!r->bad && off[m] > 1) {
      return refuse(err, errlen, "metric %u: its switched-off flag is %u, not 0 or 1", m + 1, off[m]);
    }
  }
  if (r->bad) {
    return malformed(r, "the hooks", err, errlen);
  }
  if (apply) {
    memcpy(h->stop_label, stop_label, sizeof h->stop_label);
    h->stop_step = stop_step;
    h->failures = (int)failures;
    memcpy(h->first_failure, first_failure, sizeof h->first_failure);
    for (uint32_t m = 0; m < metrics && (int)m < h->metric_count; ++m) {
      h->metric_off[m] = off[m] != 0;
    }
  }
  return true;
}

// What each per-agent array (agent_arrays' order) holds, for messages, and whether it is a value a
// script could hand over (within FB_MAX_MAGNITUDE) or need only be finite (sums of weighted rule
// outputs, forces, drags, energy spent).
static const struct {
  const char *name;
  bool bounded;
} AGENT_ARRAYS[13] = {{"position", true},  {"position", true},  {"velocity", true}, {"velocity", true},
                      {"heading", true},   {"heading", true},   {"steering", false}, {"steering", false},
                      {"force", false},    {"force", false},    {"drag", false},     {"drag", false},
                      {"energy", false}};

static int by_id(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

// No id held by two agents: a copy sorted (4 000 000 ids are 16 MB, for a moment).
static bool ids_unique(const unsigned char *ids, uint32_t n, char *err, size_t errlen)
{
  uint32_t *sorted = malloc(sizeof *sorted * (n ? n : 1));
  if (sorted == NULL) {
    return refuse(err, errlen, "not enough memory to check %u agent ids", n);
  }
  memcpy(sorted, ids, sizeof *sorted * n);
  qsort(sorted, n, sizeof *sorted, by_id);
  for (uint32_t i = 1; i < n; ++i) {
    if (sorted[i] == sorted[i - 1]) {
      uint32_t twice = sorted[i];
      free(sorted);
      return refuse(err, errlen, "agent id %u is held by two agents", twice);
    }
  }
  free(sorted);
  return true;
}

// Every agent's numbers, species, id and flags, read where they lie in the snapshot (from r->at,
// just past the count), before the world is touched.
static bool check_agents(const fbReader *r, uint32_t n, uint32_t next_id, const uint8_t map[256], char *err,
                         size_t errlen)
{
  const unsigned char *arrays = r->p + r->at, *ids = arrays + 13 * sizeof(double) * n;
  const unsigned char *species = ids + sizeof(uint32_t) * n, *active = species + n, *held = active + n;
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t id;
    memcpy(&id, ids + sizeof id * i, sizeof id);
    for (int k = 0; k < 13; ++k) {
      double v;
      memcpy(&v, arrays + sizeof v * ((size_t)k * n + i), sizeof v);
      if (AGENT_ARRAYS[k].bounded ? !sane(v) : !isfinite(v)) {
        return refuse(err, errlen, "agent %u (id %u): %s %s (%g)", i + 1, id, AGENT_ARRAYS[k].name, not_sane(v), v);
      }
    }
    if (map[species[i]] == 0xff) {
      return refuse(err, errlen, "agent %u (id %u): species %u is not one the state lists", i + 1, id, species[i]);
    }
    if (id == 0 || id >= next_id) {
      return refuse(err, errlen, "agent %u (id %u): the id is not from 1 to %u (the next id less 1)", i + 1, id,
                    next_id - 1);
    }
    if (active[i] > 1 || held[i] > 1) {
      return refuse(err, errlen, "agent %u (id %u): its %s flag is %u, not 0 or 1", i + 1, id,
                    active[i] > 1 ? "active" : "held", active[i] > 1 ? active[i] : held[i]);
    }
  }
  return ids_unique(ids, n, err, errlen);
}

// One saved field's two buffers (at r->at), each value within FB_MAX_MAGNITUDE as a:set keeps
// them, or the field's declared initial value (which a rule may make math.huge: no distance yet).
static bool check_field(const fbReader *r, const char *name, double initial, uint32_t n, const unsigned char *ids,
                        char *err, size_t errlen)
{
  for (size_t q = 0; q < 2 * (size_t)n; ++q) {
    double v;
    memcpy(&v, r->p + r->at + sizeof v * q, sizeof v);
    if (!sane(v) && memcmp(&v, &initial, sizeof v) != 0) {
      uint32_t i = (uint32_t)(q % n), id;
      memcpy(&id, ids + sizeof id * i, sizeof id);
      return refuse(err, errlen, "agent %u (id %u): field %s %s (%g)", i + 1, id, name, not_sane(v), v);
    }
  }
  return true;
}

// Agents: every array checked for length, and every value checked, before the world grows to
// hold them; set only when apply.
static bool read_agents(fbReader *r, fbWorld *w, uint32_t next_id, const uint8_t map[256], bool apply, char *err,
                        size_t errlen)
{
  uint32_t n = fbReader_U32(r);
  size_t per_agent = 13 * sizeof(double) + sizeof(uint32_t) + 3;
  if (r->bad || n > FB_MAX_AGENTS || !fbReader_Has(r, n, per_agent)) {
    return malformed(r, "the agents", err, errlen);
  }
  const unsigned char *ids = r->p + r->at + 13 * sizeof(double) * n;
  if (!apply) {
    if (!check_agents(r, n, next_id, map, err, errlen)) {
      return false;
    }
    r->at += per_agent * n;
  } else {
    fbWorld_SetCount(w, (int)n);
    fbAgents *a = &w->agents;
    double *arrays[16];
    int count = agent_arrays(a, arrays);
    for (int k = 0; k < count; ++k) {
      fbReader_Get(r, arrays[k], sizeof(double) * n);
    }
    fbReader_Get(r, a->id, sizeof(uint32_t) * n);
    fbReader_Get(r, a->species, n);
    fbReader_Get(r, a->active, n);
    fbReader_Get(r, a->held, n);
    for (uint32_t i = 0; i < n; ++i) {
      a->species[i] = map[a->species[i]];
    }
    for (int f = 0; f < w->field_count; ++f) {  // fields a rule declares that the state lacks start fresh
      for (uint32_t i = 0; i < n; ++i) {
        a->field[f][i] = a->field_next[f][i] = w->field_defaults[f];
      }
    }
  }
  uint32_t fields = fbReader_U32(r);
  for (uint32_t k = 0; k < fields && !r->bad; ++k) {
    char name[FB_NAME_LEN];
    fbReader_Str(r, name, sizeof name);
    int f = fbWorld_FindField(w, name);
    if (!fbReader_Has(r, n, 2 * sizeof(double))) {
      break;
    }
    if (!apply && f >= 0 && !check_field(r, name, w->field_defaults[f], n, ids, err, errlen)) {
      return false;
    }
    if (apply && f >= 0) {
      fbReader_Get(r, w->agents.field[f], sizeof(double) * n);
      fbReader_Get(r, w->agents.field_next[f], sizeof(double) * n);
    } else {
      r->at += 2 * sizeof(double) * n;  // checked only, or a field no rule declares now
    }
  }
  return !r->bad || malformed(r, "the agents' fields", err, errlen);
}

// The snapshot up to the hooks' Lua data: checked only (apply false) or set; r is left at that data.
static bool read_snapshot(fbReader *r, fbSim *sim, bool keep_rules, bool apply, char *err, size_t errlen)
{
  uint8_t map[256];
  uint32_t next_id = 0;
  if (!read_world(r, sim, keep_rules, apply, map, &next_id, err, errlen) ||
      !read_paths(r, &sim->world, apply, err, errlen) || !read_hooks(r, &sim->hooks, apply, err, errlen)) {
    return false;
  }
  return read_agents(r, &sim->world, next_id, map, apply, err, errlen);
}

bool fbState_Restore(fbSim *sim, const void *data, size_t len, bool keep_rules, char *err, size_t errlen)
{
  fbReader check = fbReader_Of(data, len);
  if (!read_snapshot(&check, sim, keep_rules, false, err, errlen)) {
    return false;  // nothing set
  }
  // The hooks' data is checked whole before any of it is set (hook_state.h); after it only the
  // end is left to check, and then the rest of the snapshot, already checked, is set.
  if (!fbHookState_Restore(&sim->hooks, &check, err, errlen)) {
    return false;
  }
  if (check.at != check.len) {
    return malformed(&check, "its end (bytes left over)", err, errlen);
  }
  fbReader r = fbReader_Of(data, len);
  bool set = read_snapshot(&r, sim, keep_rules, true, err, errlen);
  FB_ASSERT(set);  // what the first pass accepted the second reads the same way
  sim->seen_id = 0;
  sim->error[0] = '\0';
  return true;
}

// ---- the file ----------------------------------------------------------------------------------

#define MAX_FILES (FB_MAX_SPECIES * FB_MAX_RULES + 1)

// Every rule file a run reads, each once, and the steering library: 220 KB, so made on the heap
// by each save or load (never in a static: two sims may save at once on two threads).
typedef struct RuleFiles {
  int count;
  char path[MAX_FILES][512];
  char hex[MAX_FILES][65];  // SHA-256
} RuleFiles;

static RuleFiles *rule_files(const fbSim *sim)
{
  RuleFiles *f = malloc(sizeof *f);
  FB_ASSERT(f != NULL);
  f->count = 0;
  const fbWorld *w = &sim->world;
  for (int s = 0; s < w->species_count; ++s) {
    for (int k = 0; k <= w->species[s].rule_count; ++k) {
      const char *p = k < w->species[s].rule_count ? fbSim_RulePath(sim, s, k) : fbSim_LibraryPath(sim);
      bool seen = p[0] == '\0';
      for (int j = 0; j < f->count && !seen; ++j) {
        seen = strcmp(f->path[j], p) == 0;
      }
      if (!seen && f->count < MAX_FILES) {
        snprintf(f->path[f->count], sizeof f->path[0], "%s", p);
        fbSha256_File(p, f->hex[f->count++]);
      }
    }
  }
  return f;
}

// The SHA-256 of the snapshot, in the header: a flipped byte anywhere in it is refused.
static void body_hash(const unsigned char *data, size_t len, char hex[65])
{
  fbSha256 c;
  fbSha256_Init(&c);
  fbSha256_Update(&c, data, len);
  fbSha256_Hex(&c, hex);
}

static void write_header(fbBytes *b, const fbSim *sim, const fbBytes *body)
{
  fbBytes_Put(b, FB_STATE_MAGIC, 8);
  fbBytes_U32(b, BYTE_ORDER_MARK);
  fbBytes_U32(b, FB_STATE_VERSION);
  fbBytes_Str(b, FB_VERSION);
  char hex[65] = "";
  fbSha256_File(sim->path, hex);
  fbBytes_Str(b, sim->path);
  fbBytes_Str(b, hex);
  fbBytes_U64(b, sim->options.seed);
  fbBytes_U32(b, (uint32_t)sim->options.set_count);
  for (int k = 0; k < sim->options.set_count; ++k) {
    fbBytes_Str(b, sim->options.sets[k]);
  }
  RuleFiles *files = rule_files(sim);
  fbBytes_U32(b, (uint32_t)files->count);
  for (int k = 0; k < files->count; ++k) {
    fbBytes_Str(b, files->path[k]);
    fbBytes_Str(b, files->hex[k]);
  }
  free(files);
  fbBytes_U64(b, sim->world.step);
  char body_hex[65];
  body_hash(body->data, body->len, body_hex);
  fbBytes_Str(b, body_hex);
}

void fbState_Encode(const fbSim *sim, const void *snapshot, size_t len, fbBytes *out)
{
  fbBytes body = {(unsigned char *)snapshot, len, len};  // read only: never grown or freed here
  write_header(out, sim, &body);
  fbBytes_Put(out, snapshot, len);
}

bool fbState_Save(fbSim *sim, const char *path, bool *bad_input, char *err, size_t errlen)
{
  bool ignored;
  bad_input = bad_input != NULL ? bad_input : &ignored;
  *bad_input = true;
  fbBytes b = {0}, body = {0};
  char why[1024] = "";
  if (!fbState_Snapshot(sim, &body, why, sizeof why)) {
    snprintf(err, errlen, "%s: cannot save the state: %s", path, why);
    fbBytes_Free(&body);
    return false;
  }
  fbState_Encode(sim, body.data, body.len, &b);
  fbBytes_Free(&body);
  char tmp[1100];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  if (!fbFilePath_CheckOutput(path, why, sizeof why)) {  // never renamed over a device or a FIFO
    snprintf(err, errlen, "%s: cannot write the state: %s", path, why);
    fbBytes_Free(&b);
    return false;
  }
  FILE *f = fbFilePath_OpenOutput(tmp, "w", why, sizeof why);
  bool ok = f != NULL && fwrite(b.data, 1, b.len, f) == b.len;
  ok = (f != NULL && fclose(f) == 0) && ok;
  ok = ok && fbFilePath_CheckOutput(path, why, sizeof why) && rename(tmp, path) == 0;
  if (!ok) {
    snprintf(err, errlen, "%s: cannot write the state: %s", f == NULL ? tmp : path, why[0] ? why : strerror(errno));
    char now[256];  // a folder, a FIFO or a device put at path during the run is bad input too
    *bad_input = !fbFilePath_CheckOutput(path, now, sizeof now);
    if (f != NULL) {
      remove(tmp);
    }
  }
  fbBytes_Free(&b);
  return ok;
}

// The whole file into memory (*data, to free); false with the message. A FIFO, a device or a
// folder is refused before anything is read (a FIFO would block, a folder's size is LONG_MAX).
static bool read_file(const char *path, unsigned char **data, size_t *len, char *err, size_t errlen)
{
  char why[256] = "read failed";
  long size = -1;
  FILE *f = fbFilePath_OpenRegular(path, FB_MAX_STATE_BYTES, &size, why, sizeof why);
  *data = f != NULL ? malloc((size_t)size + 1) : NULL;
  bool ok = *data != NULL && fread(*data, 1, (size_t)size, f) == (size_t)size;
  if (f != NULL) {
    fclose(f);
  }
  if (!ok) {
    snprintf(err, errlen, "%s: cannot read the state: %s", path, f == NULL ? why : "read failed");
    free(*data);
    *data = NULL;
    return false;
  }
  *len = (size_t)size;
  return true;
}

// The --set lists must agree as sets: the same overrides, in any order.
static bool same_sets(fbReader *r, const fbRunOptions *o, char *which, size_t len)
{
  uint32_t n = fbReader_U32(r);
  bool same = n == (uint32_t)o->set_count;
  snprintf(which, len, "%s", n != (uint32_t)o->set_count ? "a different number of --set" : "");
  for (uint32_t k = 0; k < n && !r->bad; ++k) {
    char set[512];
    fbReader_Str(r, set, sizeof set);
    bool found = false;
    for (int j = 0; j < o->set_count && !found; ++j) {
      found = strcmp(o->sets[j], set) == 0;
    }
    if (!found && same) {
      snprintf(which, len, "--set %s", set);
    }
    same = same && found;
  }
  return same;
}

// The rule files: noted in info when one changed since the save (allowed).
static void compare_rules(fbReader *r, const fbSim *sim, fbStateInfo *info)
{
  RuleFiles *files = rule_files(sim);
  uint32_t n = fbReader_U32(r);
  info->rules_differ = n != (uint32_t)files->count;
  for (uint32_t k = 0; k < n && !r->bad; ++k) {
    char path[512], hex[65];
    fbReader_Str(r, path, sizeof path);
    fbReader_Str(r, hex, sizeof hex);
    bool same = false;
    for (int j = 0; j < files->count && !same; ++j) {
      same = strcmp(files->path[j], path) == 0 && strcmp(files->hex[j], hex) == 0;
    }
    if (!same && !info->rules_differ) {
      snprintf(info->rule_changed, sizeof info->rule_changed, "%s", path);
    }
    info->rules_differ = info->rules_differ || !same;
  }
  free(files);
}

static bool check_header(fbReader *r, const fbSim *sim, const char *path, fbStateInfo *info, char *err, size_t errlen)
{
  char magic[8], version[64], scenario[512], hex[65], now_hex[65] = "", which[600];
  fbReader_Get(r, magic, sizeof magic);
  if (r->bad || memcmp(magic, FB_STATE_MAGIC, 8) != 0) {
    snprintf(err, errlen, "%s: not a flockbox state (bad magic)", path);
    return false;
  }
  uint32_t order = fbReader_U32(r), format = fbReader_U32(r);
  if (order != BYTE_ORDER_MARK || format != FB_STATE_VERSION) {
    snprintf(err, errlen, "%s: state format %u%s, this flockbox reads format %u", path, format,
             order != BYTE_ORDER_MARK ? " of another byte order" : "", FB_STATE_VERSION);
    return false;
  }
  fbReader_Str(r, version, sizeof version);
  fbReader_Str(r, scenario, sizeof scenario);
  fbReader_Str(r, hex, sizeof hex);
  uint64_t seed = fbReader_U64(r);
  if (r->bad) {
    snprintf(err, errlen, "%s: the state is truncated or corrupt (in its header)", path);
    return false;
  }
  fbSha256_File(sim->path, now_hex);
  if (strcmp(version, FB_VERSION) != 0) {
    snprintf(err, errlen, "%s: saved by flockbox %s, this is flockbox %s", path, version, FB_VERSION);
  } else if (strcmp(hex, now_hex) != 0) {
    snprintf(err, errlen, "%s: saved from scenario %s (SHA-256 %.12s...), not %s (%.12s...)", path, scenario, hex,
             sim->path, now_hex);
  } else if (seed != sim->options.seed) {
    snprintf(err, errlen, "%s: saved with --seed %llu, this run has --seed %llu", path, (unsigned long long)seed,
             (unsigned long long)sim->options.seed);
  } else if (!same_sets(r, &sim->options, which, sizeof which) && !r->bad) {
    snprintf(err, errlen, "%s: the --set values differ from those it was saved with (%s)", path, which);
  } else {
    compare_rules(r, sim, info);
    info->step = fbReader_U64(r);
    char body_hex[65], now_body[65] = "";
    fbReader_Str(r, body_hex, sizeof body_hex);
    if (!r->bad) {
      body_hash(r->p + r->at, r->len - r->at, now_body);
    }
    if (!r->bad && strcmp(body_hex, now_body) == 0) {
      return true;
    }
    if (!r->bad) {
      snprintf(err, errlen, "%s: the state is truncated or corrupt (its SHA-256 does not match)", path);
      return false;
    }
    snprintf(err, errlen, "%s: the state is truncated or corrupt (in its header)", path);
  }
  return false;
}

bool fbState_LoadBytes(fbSim *sim, const void *data, size_t len, const char *path, fbStateInfo *info, char *err,
                       size_t errlen)
{
  memset(info, 0, sizeof *info);
  fbReader r = fbReader_Of(data, len);
  bool ok = check_header(&r, sim, path, info, err, errlen);
  char why[1024];
  if (ok && !fbState_Restore(sim, (const unsigned char *)data + r.at, len - r.at, false, why, sizeof why)) {
    snprintf(err, errlen, "%s: %s", path, why);
    ok = false;
  }
  return ok;
}

bool fbState_Load(fbSim *sim, const char *path, fbStateInfo *info, char *err, size_t errlen)
{
  memset(info, 0, sizeof *info);
  unsigned char *data;
  size_t len;
  if (!read_file(path, &data, &len, err, errlen)) {
    return false;
  }
  bool ok = fbState_LoadBytes(sim, data, len, path, info, err, errlen);
  free(data);
  return ok;
}
