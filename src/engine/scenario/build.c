// build.c — a world from its description: the checks every world gets, whether read from Lua or filled in by C.
#include "build.h"

#include <string.h>

#include "names.h"
#include "paths.h"
#include "route_build.h"
#include "schema.h"

static const char *file_of(const fbScenarioDef *d) { return d->path[0] ? d->path : "(world built in C)"; }

static bool check_def(const fbScenarioDef *d, const fbSchema *s, const void *def, const char *where, char *err,
                      size_t errlen)
{
  const char *field;
  char msg[256];
  if (fbSchema_Check(s, def, &field, msg, sizeof msg)) {
    return true;
  }
  snprintf(err, errlen, "%s: %s%s%s: %s", file_of(d), where, where[0] ? "." : "", field, msg);
  return false;
}

static bool build_terrain(fbWorld *w, const fbScenarioDef *d, char *err, size_t errlen)
{
  const fbTerrainDef *t = &d->world.terrain;
  fbTerrain_InitFlat(&w->terrain, w->width, w->height);
  if (t->png[0] != '\0') {
    char path[600], msg[700];
    fbFilePath_Resolve(d->path, t->png, path, sizeof path);
    if (!fbTerrain_LoadPng(&w->terrain, path, w->width, w->height, t->height, msg, sizeof msg)) {
      snprintf(err, errlen, "%s: terrain.png: %s", file_of(d), msg);
      return false;
    }
    snprintf(w->terrain.source, sizeof w->terrain.source, "%s", path);
  } else if (t->generate >= 0) {
    double feature = t->feature > 0 ? t->feature : fmin(w->width, w->height) / 4;
    fbTerrain_Generate(&w->terrain, (uint64_t)t->generate, t->samples, w->width, w->height, t->height, feature);
  }
  return true;
}

// vision.sees names species; with none named, a species sees its own kind.
static bool resolve_sees(fbWorld *w, const fbScenarioDef *d, int s, char *err, size_t errlen)
{
  const fbVisionDef *v = &d->species[s].vision;
  uint32_t mask = v->sees_count == 0 ? 1u << s : 0;
  for (int k = 0; k < v->sees_count; ++k) {
    int other = fbWorld_FindSpecies(w, v->sees[k]);
    if (other < 0) {
      snprintf(err, errlen, "%s: species[%d].vision.sees[%d]: unknown species '%s'", file_of(d), s + 1, k + 1,
               v->sees[k]);
      return false;
    }
    mask |= 1u << other;
  }
  w->species[s].vision.sees = mask;
  return true;
}

// The counts of a species' lists: a def filled in C may hold any int there, and each one bounds a
// loop over a fixed array.
static bool check_counts(const fbScenarioDef *d, const fbSpeciesDef *sd, const char *where, char *err, size_t errlen)
{
  if (sd->rule_count < 0 || sd->rule_count > FB_MAX_RULES) {
    snprintf(err, errlen, "%s: %s.rules: %d rules, expected 0 to %d", file_of(d), where, sd->rule_count, FB_MAX_RULES);
    return false;
  }
  if (sd->vision.sees_count < 0 || sd->vision.sees_count > FB_MAX_SPECIES) {
    snprintf(err, errlen, "%s: %s.vision.sees: %d names, expected 0 to %d", file_of(d), where, sd->vision.sees_count,
             FB_MAX_SPECIES);
    return false;
  }
  for (int k = 0; k < sd->vision.sees_count; ++k) {
    if (memchr(sd->vision.sees[k], '\0', FB_NAME_LEN) == NULL) {
      snprintf(err, errlen, "%s: %s.vision.sees[%d]: is not ended within its %d bytes (no zero byte)", file_of(d),
               where, k + 1, FB_NAME_LEN);
      return false;
    }
  }
  return true;
}

// A rule slot beyond its schema: a module name that stays inside the rule folders (the check a
// scenario's rules list gets, which a def filled in C skipped: "../scripts/x" was loaded), and
// parameter overrides whose count, kind and texts are sound.
static bool check_rule(const fbScenarioDef *d, const fbRuleDef *r, const char *where, char *err, size_t errlen)
{
  if (r->module[0] == '\0' && r->native == NULL) {
    snprintf(err, errlen, "%s: %s.rule: name the rule's module (or give a native function)", file_of(d), where);
    return false;
  }
  if (r->module[0] != '\0' && !fbName_IsModule(r->module)) {
    snprintf(err, errlen, "%s: %s.rule: '%s' is not a module name (letters, digits and _ only)", file_of(d), where,
             r->module);
    return false;
  }
  if (r->param_count < 0 || r->param_count > FB_MAX_PARAMS) {
    snprintf(err, errlen, "%s: %s.params: %d parameters, expected 0 to %d", file_of(d), where, r->param_count,
             FB_MAX_PARAMS);
    return false;
  }
  for (int k = 0; k < r->param_count; ++k) {
    const fbParamDef *p = &r->params[k];
    char why[128] = "";
    if (memchr(p->name, '\0', sizeof p->name) == NULL || p->name[0] == '\0') {
      snprintf(why, sizeof why, "name: expected 1 to %d characters", FB_NAME_LEN - 1);
    } else if (p->kind != FB_VALUE_NUMBER && p->kind != FB_VALUE_INTEGER && p->kind != FB_VALUE_BOOL &&
               p->kind != FB_VALUE_STRING) {
      snprintf(why, sizeof why, "kind: expected FB_VALUE_NUMBER, _INTEGER, _BOOL or _STRING (got the value %d)",
               (int)p->kind);
    } else if (memchr(p->text, '\0', sizeof p->text) == NULL) {
      snprintf(why, sizeof why, "text: is not ended within its %d bytes (no zero byte)", FB_PARAM_TEXT);
    }
    if (why[0] != '\0') {
      snprintf(err, errlen, "%s: %s.params[%d].%s", file_of(d), where, k + 1, why);
      return false;
    }
  }
  return true;
}

static bool build_species(fbWorld *w, const fbScenarioDef *d, int s, char *err, size_t errlen)
{
  const fbSpeciesDef *sd = &d->species[s];
  char where[640];
  snprintf(where, sizeof where, "species[%d]", s + 1);
  if (!check_def(d, &fbSpeciesSchema, sd, where, err, errlen) || !check_counts(d, sd, where, err, errlen)) {
    return false;
  }
  if (sd->name[0] == '\0' || fbWorld_FindSpecies(w, sd->name) >= 0) {
    snprintf(err, errlen, "%s: %s.name: %s", file_of(d), where,
             sd->name[0] ? "two species have this name" : "every species needs a name");
    return false;
  }
  char why[160];
  if (!fbName_CheckColumn(sd->name, strlen(sd->name), false, why, sizeof why)) {
    snprintf(err, errlen, "%s: %s.name: %s", file_of(d), where, why);
    return false;
  }
  snprintf(where, sizeof where, "%s: species[%d]", file_of(d), s + 1);
  fbSpecies *sp = &w->species[s];
  if (!fbSpeciesDef_Build(sd, w->dt, sp, where, err, errlen)) {
    return false;
  }
  if (sd->half_accel && w->update != FB_UPDATE_EULER) {
    snprintf(err, errlen, "%s.half_accel: Gompert's 1/2 a dt^2 term belongs to world.update = \"euler\"", where);
    return false;
  }
  sp->rule_count = sd->rule_count;
  sp->all_native = true;
  for (int k = 0; k < sd->rule_count; ++k) {
    const fbRuleDef *r = &sd->rules[k];
    char rule_where[64];
    snprintf(rule_where, sizeof rule_where, "species[%d].rules[%d]", s + 1, k + 1);
    if (!check_def(d, &fbRuleSchema, r, rule_where, err, errlen) || !check_rule(d, r, rule_where, err, errlen)) {
      return false;
    }
    sp->rules[k] = fbRuleSlot_FromDef(r);
    sp->all_native = sp->all_native && r->native != NULL;
  }
  w->species_count = s + 1;
  return true;
}

// Each path's spline and arc-length table; the checks of its points and speeds are the spline's.
static bool build_paths(fbWorld *w, const fbScenarioDef *d, char *err, size_t errlen)
{
  fbPaths_Free(&w->paths);
  if (d->path_count == 0) {
    return true;
  }
  w->paths.items = calloc((size_t)d->path_count, sizeof *w->paths.items);
  FB_ASSERT(w->paths.items != NULL);
  for (int k = 0; k < d->path_count; ++k) {
    const fbPathDef *pd = &d->paths[k];
    char msg[512];
    if (fbPaths_Find(&w->paths, pd->name) >= 0) {
      snprintf(err, errlen, "%s: paths[%d].name: two paths are named '%s'", file_of(d), k + 1, pd->name);
      return false;
    }
    if (!fbPath_Init(&w->paths.items[k], pd->name, pd->points, pd->point_count, pd->closed, pd->keys, pd->key_count,
                     pd->start, msg, sizeof msg)) {
      snprintf(err, errlen, "%s: paths[%d].%s", file_of(d), k + 1, msg);
      return false;
    }
    w->paths.count = k + 1;
  }
  return true;
}

// One flow field: a PNG stretched over the world, or the samples of a function read with the scenario.
static bool build_flow(fbFlowField *f, const fbWorld *w, const fbScenarioDef *d, int k, char *err, size_t errlen)
{
  const fbFlowDef *fd = &d->flows[k];
  char msg[900];
  bool ok;
  if (fd->route.on) {
    return true;  // a route: built by build_routes once the regions and species it needs are
  }
  if (fd->png[0] != '\0') {
    char path[600];
    fbFilePath_Resolve(d->path, fd->png, path, sizeof path);
    ok = fbFlowField_LoadPng(f, fd->name, path, fd->speed, w->width, w->height, msg, sizeof msg);
    if (!ok) {
      snprintf(err, errlen, "%s: flow_fields.%s.png: %s", file_of(d), fd->name, msg);
    }
    return ok;
  }
  if (fd->vx == NULL) {
    snprintf(err, errlen, "%s: flow_fields.%s: give png = \"NAME.png\" or fn = function(x, y) return vx, vy end",
             file_of(d), fd->name);
    return false;
  }
  ok = fbFlowField_Init(f, fd->name, fd->cols, fd->rows, fd->width, fd->height, fd->vx, fd->vy, msg, sizeof msg);
  if (!ok) {
    snprintf(err, errlen, "%s: flow_fields.%s.fn: %s", file_of(d), fd->name, msg);
  }
  return ok;
}

static bool build_flows(fbWorld *w, const fbScenarioDef *d, char *err, size_t errlen)
{
  fbFlowFields_Free(&w->flows);
  if (d->flow_count == 0) {
    return true;
  }
  w->flows.items = calloc((size_t)d->flow_count, sizeof *w->flows.items);
  FB_ASSERT(w->flows.items != NULL);
  for (int k = 0; k < d->flow_count; ++k) {
    if (fbFlowFields_Find(&w->flows, d->flows[k].name) >= 0) {
      snprintf(err, errlen, "%s: flow_fields.%s: two flow fields have this name", file_of(d), d->flows[k].name);
      return false;
    }
    if (!build_flow(&w->flows.items[k], w, d, k, err, errlen)) {
      return false;
    }
    w->flows.count = k + 1;
  }
  return true;
}

// The route fields, over the world as built: its obstacles, regions, terrain and species' bodies.
static bool build_routes(fbWorld *w, const fbScenarioDef *d, char *err, size_t errlen)
{
  for (int k = 0; k < d->flow_count; ++k) {
    char msg[900];
    if (d->flows[k].route.on && !fbRoute_Build(&w->flows.items[k], &d->flows[k], w, msg, sizeof msg)) {
      snprintf(err, errlen, "%s: %s", file_of(d), msg);
      return false;
    }
  }
  return true;
}

static bool build_regions(fbWorld *w, const fbScenarioDef *d, char *err, size_t errlen)
{
  fbRegions_Free(&w->regions);
  if (d->region_count == 0) {
    return true;
  }
  w->regions.items = calloc((size_t)d->region_count, sizeof *w->regions.items);
  FB_ASSERT(w->regions.items != NULL);
  for (int k = 0; k < d->region_count; ++k) {
    const fbRegionDef *rd = &d->regions[k];
    char msg[512];
    if (fbRegions_Find(&w->regions, rd->name) >= 0) {
      snprintf(err, errlen, "%s: regions.%s: two regions have this name", file_of(d), rd->name);
      return false;
    }
    if (!fbRegion_Init(&w->regions.items[k], rd->name, rd->points, rd->point_count, msg, sizeof msg)) {
      snprintf(err, errlen, "%s: regions.%s: %s", file_of(d), rd->name, msg);
      return false;
    }
    w->regions.count = k + 1;
  }
  return true;
}

// Each species' count is within FB_MAX_AGENTS on its own (the schema); so must their sum be, with
// the agents placed by hand, or the engine would spend gigabytes before anything could say why.
static bool check_agent_total(const fbScenarioDef *d, char *err, size_t errlen)
{
  double total = d->placed_count;
  for (int s = 0; s < d->species_count; ++s) {
    total += d->species[s].count;
  }
  if (total > FB_MAX_AGENTS) {
    snprintf(err, errlen, "%s: species: %.0f agents in all, more than the engine holds (%d)", file_of(d), total,
             FB_MAX_AGENTS);
    return false;
  }
  return true;
}

/*
 * Agents placed by hand, named as a scenario's agents list names them (species[1].agents[2]): of a
 * species the world has (fbScenarioDef_PlaceAgent refuses others), at a finite position within
 * the reach of a spawn area, moving at a finite velocity within the reach of a spawn speed. A
 * scenario file's reader checks only that they are finite; a def filled in C, not even that.
 */
static bool check_placed(const fbScenarioDef *d, char *err, size_t errlen)
{
  const fbField *area = fbSchema_Find(&fbSpeciesSchema, "spawn.area");
  const fbField *speed = fbSchema_Find(&fbSpeciesSchema, "spawn.speed");
  int placed[FB_MAX_SPECIES] = {0};
  for (int k = 0; k < d->placed_count; ++k) {
    const fbPlacedAgent *a = &d->placed[k];
    if (a->species < 0 || a->species >= d->species_count) {
      snprintf(err, errlen, "%s: agent %d placed by hand: species %d does not exist (there are %d)", file_of(d),
               k + 1, a->species, d->species_count);
      return false;
    }
    int n = ++placed[a->species];
    fbVec2 v[2] = {a->p, a->v};
    double reach[2] = {area->hi, speed->hi};
    for (int q = 0; q < 2; ++q) {
      if (!isfinite(v[q].x) || !isfinite(v[q].y) || fabs(v[q].x) > reach[q] || fabs(v[q].y) > reach[q]) {
        snprintf(err, errlen, "%s: species[%d].agents[%d]: %s (%g, %g): expected finite numbers within -%g .. %g",
                 file_of(d), a->species + 1, n, q == 0 ? "position" : "velocity", v[q].x, v[q].y, reach[q], reach[q]);
        return false;
      }
    }
  }
  return true;
}

bool fbBuild_World(fbWorld *w, fbScenarioDef *d, char *err, size_t errlen)
{
  if (!check_def(d, &fbScenarioSchema, d, "", err, errlen)) {
    return false;
  }
  if (d->species_count < 1) {
    snprintf(err, errlen, "%s: species: a scenario needs at least one species", file_of(d));
    return false;
  }
  w->width = d->world.width;
  w->height = d->world.height;
  w->dt = d->world.dt;
  w->bounds = d->world.bounds;
  w->update = d->world.update;
  w->collision_iterations = d->world.collision_iterations;
  if (!build_terrain(w, d, err, errlen)) {
    return false;
  }
  fbObstacles_Free(&w->obstacles);
  w->obstacles = d->obstacles;
  fbObstacles_Init(&d->obstacles);
  memcpy(w->goals, d->goals, sizeof w->goals);
  w->goal_count = d->goal_count;
  if (!build_paths(w, d, err, errlen) || !build_flows(w, d, err, errlen) || !build_regions(w, d, err, errlen)) {
    return false;
  }
  if (!check_agent_total(d, err, errlen) || !check_placed(d, err, errlen)) {
    return false;
  }
  for (int s = 0; s < d->species_count; ++s) {
    if (!build_species(w, d, s, err, errlen)) {
      return false;
    }
  }
  for (int s = 0; s < d->species_count; ++s) {
    if (!resolve_sees(w, d, s, err, errlen)) {
      return false;
    }
  }
  return build_routes(w, d, err, errlen);
}
