// defs.c — defaults of the definition structs, their small builders, and the landmark checks of a species.
#include "defs.h"

#include <stdarg.h>
#include <string.h>

#include "fb_math.h"
#include "names.h"

fbWorldDef fbDefaultWorldDef(void)
{
  fbWorldDef d;
  memset(&d, 0, sizeof d);
  d.width = 100.0;
  d.height = 100.0;
  d.dt = 0.05;
  d.bounds = FB_BOUNDS_WRAP;
  d.update = FB_UPDATE_EULER;
  d.collision_iterations = 1;
  d.terrain.height = 10.0;
  d.terrain.generate = -1.0;
  d.terrain.samples = 256;
  return d;
}

fbSpeciesDef fbDefaultSpeciesDef(void)
{
  fbSpeciesDef d;
  memset(&d, 0, sizeof d);
  d.spawn.area[0] = NAN;
  d.spawn.around[2] = -1.0;
  d.spawn.speed[1] = -1.0;
  d.spawn.heading = NAN;
  d.body_length = 1.0;
  d.draw_size = 9.0;
  d.max_speed = 10.0;
  d.cruise_speed = -1.0;
  d.max_accel = -1.0;
  d.max_turn = -1.0;
  d.vision.radius = 10.0;
  d.vision.fov = 270.0;
  d.vision.separation = -1.0;
  d.accumulator = FB_ACCUM_WEIGHTED;
  d.update_every = 1;
  d.slope_correction = true;
  d.orca.time_horizon = 10.0;  // RVO2's examples' values
  d.orca.obstacle_horizon = 10.0;
  d.orca.neighbours = 10;
  d.orca.distance = 15.0;
  d.orca.layers = 1;  // Godot's defaults: every agent on layer 1, avoiding layer 1
  d.orca.mask = 1;
  d.collide = true;  // every species has a body (body_length): on where the seeds have bodies
  d.colour[0] = 240;
  d.colour[1] = 200;
  d.colour[2] = 60;
  return d;
}

fbRuleDef fbDefaultRuleDef(void)
{
  fbRuleDef d;
  memset(&d, 0, sizeof d);
  d.weight = 1.0;
  return d;
}

fbScenarioDef *fbScenarioDef_New(void)
{
  fbScenarioDef *d = calloc(1, sizeof *d);
  FB_ASSERT(d != NULL);
  d->world = fbDefaultWorldDef();
  fbObstacles_Init(&d->obstacles);
  return d;
}

void fbScenarioDef_Delete(fbScenarioDef *d)
{
  if (d != NULL) {
    for (int k = 0; k < d->path_count; ++k) {
      free(d->paths[k].points);
      free(d->paths[k].keys);
    }
    for (int k = 0; k < d->flow_count; ++k) {
      free(d->flows[k].vx);
      free(d->flows[k].vy);
      free(d->flows[k].route.cost_samples);
    }
    for (int k = 0; k < d->region_count; ++k) {
      free(d->regions[k].points);
    }
    fbObstacles_Free(&d->obstacles);
    free(d->placed);
    free(d);
  }
}

fbSpeciesDef *fbScenarioDef_AddSpecies(fbScenarioDef *d, const char *name)
{
  if (d->species_count >= FB_MAX_SPECIES || strlen(name) >= FB_NAME_LEN) {
    return NULL;
  }
  fbSpeciesDef *s = &d->species[d->species_count++];
  *s = fbDefaultSpeciesDef();
  snprintf(s->name, sizeof s->name, "%s", name);
  return s;
}

fbSpeciesDef *fbScenarioDef_FindSpecies(fbScenarioDef *d, const char *name)
{
  for (int s = 0; s < d->species_count; ++s) {
    if (strcmp(d->species[s].name, name) == 0) {
      return &d->species[s];
    }
  }
  return NULL;
}

fbRuleDef *fbSpeciesDef_AddRule(fbSpeciesDef *s, const char *module)
{
  if (s->rule_count >= FB_MAX_RULES || (module != NULL && strlen(module) >= FB_NAME_LEN)) {
    return NULL;
  }
  fbRuleDef *r = &s->rules[s->rule_count++];
  *r = fbDefaultRuleDef();
  snprintf(r->module, sizeof r->module, "%s", module != NULL ? module : "");
  return r;
}

const char *fbRuleDef_Name(const fbRuleDef *r) { return r->name[0] ? r->name : r->module; }

fbRuleDef *fbSpeciesDef_FindRule(fbSpeciesDef *s, const char *name)
{
  for (int k = 0; k < s->rule_count; ++k) {
    if (strcmp(fbRuleDef_Name(&s->rules[k]), name) == 0) {
      return &s->rules[k];
    }
  }
  return NULL;
}

bool fbRuleDef_SetParam(fbRuleDef *r, const fbParamDef *p)
{
  char why[160];
  if (strnlen(p->name, sizeof p->name) >= FB_NAME_LEN ||
      !fbName_CheckParamText(p->text, strnlen(p->text, sizeof p->text), why, sizeof why)) {
    return false;
  }
  for (int k = 0; k < r->param_count; ++k) {
    if (strcmp(r->params[k].name, p->name) == 0) {
      r->params[k] = *p;
      return true;
    }
  }
  if (r->param_count >= FB_MAX_PARAMS) {
    return false;
  }
  r->params[r->param_count++] = *p;
  return true;
}

bool fbRuleDef_SetNumber(fbRuleDef *r, const char *name, double value)
{
  fbParamDef p;
  memset(&p, 0, sizeof p);
  if (strlen(name) >= FB_NAME_LEN) {
    return false;
  }
  snprintf(p.name, sizeof p.name, "%s", name);
  p.kind = FB_VALUE_NUMBER;
  p.number = value;
  return fbRuleDef_SetParam(r, &p);
}

bool fbScenarioDef_PlaceAgent(fbScenarioDef *d, int species, fbVec2 p, fbVec2 v)
{
  // The species is what the agent is filed under: one not added yet would never be spawned. Its
  // position and velocity are checked with the rest of the def, by fbSim_New, which names them.
  if (species < 0 || species >= d->species_count || d->placed_count >= FB_MAX_PLACED) {
    return false;
  }
  if (d->placed_count == d->placed_capacity) {
    d->placed_capacity = d->placed_capacity ? 2 * d->placed_capacity : 64;
    d->placed = realloc(d->placed, sizeof *d->placed * (size_t)d->placed_capacity);
    FB_ASSERT(d->placed != NULL);
  }
  d->placed[d->placed_count++] = (fbPlacedAgent){species, p, v};
  return true;
}

fbPathDef *fbScenarioDef_AddPath(fbScenarioDef *d, const char *name, const fbVec2 *points, int n)
{
  if (d->path_count >= FB_MAX_PATHS || strlen(name) >= FB_NAME_LEN || n < 0) {
    return NULL;
  }
  fbPathDef *p = &d->paths[d->path_count++];
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "%s", name);
  p->points = malloc(sizeof *p->points * (size_t)(n > 0 ? n : 1));
  FB_ASSERT(p->points != NULL);
  if (n > 0) {
    memcpy(p->points, points, sizeof *p->points * (size_t)n);
  }
  p->point_count = n;
  return p;
}

void fbPathDef_SetKeys(fbPathDef *p, const fbSpeedKey *keys, int n)
{
  free(p->keys);
  p->keys = malloc(sizeof *p->keys * (size_t)(n > 0 ? n : 1));
  FB_ASSERT(p->keys != NULL);
  if (n > 0) {
    memcpy(p->keys, keys, sizeof *p->keys * (size_t)n);
  }
  p->key_count = n;
}

void fbPathDef_SetSpeed(fbPathDef *p, double v) { fbPathDef_SetKeys(p, &(fbSpeedKey){0.0, v}, 1); }

static bool fail(char *err, size_t errlen, const char *where, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static bool fail(char *err, size_t errlen, const char *where, const char *key, const char *fmt, ...)
{
  char msg[256];
  va_list args;
  va_start(args, fmt);
  vsnprintf(msg, sizeof msg, fmt, args);
  va_end(args);
  snprintf(err, errlen, "%s.%s: %s", where, key, msg);
  return false;
}

/*
 * A species as a step uses it, built from its description one option group at a time: each group
 * (schema.c's species_fields, in blocks) is embedded whole in fbSpecies where its consumer reads it
 * (vision.def, orca), and the values derived from a group are built by that group's one function
 * here (motion_limits, vision_of), which the schema's block names.
 *
 * Gompert's appendix and Table 1 give the derived defaults and the landmarks that relate fields:
 * cruising speed 0.7 of the maximum and at most the maximum; maximum acceleration twice the
 * maximum speed; the comfort (separation) zone at least the animal's size, here two body lengths
 * but never beyond what it can see. The view is stored as the cosine of half its angle (Gompert
 * 9.3.4), -2 for all round; the turn limit as radians per step (Gamlen 3.7).
 */

// The motion group (max_speed ... drag, body_length): the limits integrate.c moves a body within.
static fbMotionLimits motion_limits(const fbSpeciesDef *d, double dt)
{
  return (fbMotionLimits){.max_speed = d->max_speed,
                          .min_speed = d->min_speed,
                          .max_accel = d->max_accel < 0 ? 2.0 * d->max_speed : d->max_accel,
                          .max_turn = d->max_turn >= 0 ? d->max_turn * FB_PI / 180.0 * dt : FB_PI * 1000,
                          .body_radius = d->body_length / 2,
                          .half_accel_term = d->half_accel,
                          .slope_correction = d->slope_correction,
                          .drag_form = d->drag};
}

// The vision group (vision.*): the description whole, and what perception's kernels test, derived
// from it. Whom it sees (sees, a mask of species) is resolved by build.c, which knows the species;
// which lists to keep (list, nearest) by the sim, from what its rules read.
static fbVision vision_of(const fbSpeciesDef *d)
{
  const fbVisionDef *v = &d->vision;
  return (fbVision){.radius = v->radius,
                    .cos_half_fov = v->fov >= 360.0 ? -2.0 : fbMath_Cos(v->fov * FB_PI / 360.0),
                    .separation_radius = v->separation < 0 ? fmin(v->radius, 2.0 * d->body_length) : v->separation,
                    .sample = v->sample,
                    .gamlen = v->sampling == FB_SAMPLING_GAMLEN,
                    .def = *v};
}

bool fbSpeciesDef_Build(const fbSpeciesDef *d, double dt, fbSpecies *out, const char *where, char *err,
                        size_t errlen)
{
  memset(out, 0, sizeof *out);
  snprintf(out->name, sizeof out->name, "%s", d->name);
  if (d->cruise_speed > d->max_speed) {
    return fail(err, errlen, where, "cruise_speed", "must not exceed max_speed (%g > %g; Gompert Table 1)",
                d->cruise_speed, d->max_speed);
  }
  if (d->min_speed > d->max_speed) {
    return fail(err, errlen, where, "min_speed", "must not exceed max_speed (%g > %g)", d->min_speed,
                d->max_speed);
  }
  out->limits = motion_limits(d, dt);
  out->cruise_speed = d->cruise_speed < 0 ? 0.7 * d->max_speed : d->cruise_speed;
  out->body_length = d->body_length;
  out->draw_size = d->draw_size;
  out->vision = vision_of(d);
  out->accumulator = d->accumulator;
  out->update_every = d->update_every < 1 ? 1 : d->update_every;
  out->player = d->player;
  out->collide = d->collide;
  out->orca = d->orca;
  for (int c = 0; c < 3; ++c) {
    out->colour[c] = (uint8_t)fmin(255, fmax(0, d->colour[c]));
  }
  return true;
}
