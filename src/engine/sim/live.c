// live.c — --set applied to a running sim: species rebuilt from their description, rule weights and parameters checked first.
#include "live.h"

#include <stddef.h>
#include <string.h>

#include "schema.h"

#define RUN(member) offsetof(fbSpecies, member)

// The species fields fbSpeciesDef_Build turns into what a step reads (limits, vision, combiner),
// and count, which the panel keeps for a restart (agents are spawned once). Other species fields
// take effect on restart only and are not offered.
const fbLiveField fbLiveFields[] = {
    {"max_speed", "max speed", true, RUN(limits.max_speed), 0, NULL, 0, NULL},
    {"min_speed", "min speed", true, RUN(limits.min_speed), 0, "max_speed", 0, NULL},
    {"cruise_speed", "cruise speed", true, RUN(cruise_speed), 0, "max_speed", 0, NULL},
    {"max_accel", "max accel", true, RUN(limits.max_accel), 0, NULL, 0, NULL},
    {"max_turn", NULL, true, FB_LIVE_AS_WRITTEN, 0, NULL, 0, NULL},  // unlimited by default: no slider end
    {"vision.radius", "vision radius", true, RUN(vision.radius), 0, NULL, 0, NULL},
    {"vision.fov", "field of view (deg)", true, RUN(vision.def.fov), 360, NULL, 0, NULL},
    {"vision.separation", "separation", true, RUN(vision.separation_radius), 0, "vision.radius", 0, NULL},
    {"accumulator", "combiner", true, RUN(accumulator), 0, NULL, 0, NULL},
    {"orca", NULL, true, FB_LIVE_AS_WRITTEN, 0, NULL, 0, NULL},  // on or off: --set only (the panel has no switches)
    {"orca.time_horizon", "ORCA horizon (s)", true, RUN(orca.time_horizon), 0, NULL, 20, "orca"},
    {"orca.obstacle_horizon", "ORCA walls (s)", true, RUN(orca.obstacle_horizon), 0, NULL, 20, "orca"},
    {"orca.neighbours", "ORCA neighbours", true, RUN(orca.neighbours), 64, NULL, 0, "orca"},
    {"orca.distance", "ORCA distance", true, RUN(orca.distance), 0, NULL, 30, "orca"},
    {"orca.keep_right", "ORCA keep right (°)", true, RUN(orca.keep_right), 90, NULL, 0, "orca"},
    {"orca.layers", NULL, true, RUN(orca.layers), 0, NULL, 0, NULL},  // bit sets: --set only (a slider cannot set bits)
    {"orca.mask", NULL, true, RUN(orca.mask), 0, NULL, 0, NULL},
    {"orca.priority", "ORCA priority", true, RUN(orca.priority), 0, NULL, 10, "orca"},
    {"orca.standing_speed", "ORCA standing below", true, RUN(orca.standing_speed), 0, "max_speed", 0, "orca"},
    {"orca.patience", "ORCA patience (s)", true, RUN(orca.patience), 0, NULL, 20, "orca"},
    {"count", "agents (on restart: R)", false, FB_LIVE_AS_WRITTEN, 0, NULL, 10, NULL},
};
const int fbLiveFieldCount = (int)(sizeof fbLiveFields / sizeof fbLiveFields[0]);

bool fbLive_Shown(const fbSim *sim, int s, const fbLiveField *f)
{
  return f->label != NULL && (f->when == NULL || fbLive_SpeciesField(sim, s, f->when) != 0);
}

// Whether species field `field` ("max_speed", "vision.fov", "accumulator") can change live.
static bool is_live(const char *field)
{
  for (int k = 0; k < fbLiveFieldCount; ++k) {
    if (strcmp(fbLiveFields[k].field, field) == 0) {
      return fbLiveFields[k].live;
    }
  }
  return false;
}

double fbLive_Running(const fbSim *sim, int s, const fbLiveField *f)
{
  if (f->running == FB_LIVE_AS_WRITTEN) {
    return fbLive_SpeciesField(sim, s, f->field);
  }
  const char *at = (const char *)&fbSim_World(sim)->species[s] + f->running;
  fbFieldKind kind = fbSchema_Find(&fbSpeciesSchema, f->field)->kind;
  return fbNumberAt(at, kind == FB_FIELD_CHOICE || kind == FB_FIELD_INT);  // an int: an enum or a count
}

static bool refuse(char *msg, size_t len, const char *what, const char *why)
{
  snprintf(msg, len, "%s: %s", what, why);
  return false;
}

bool fbLive_SetSpeciesField(fbSim *sim, int s, const char *field, double value, char *msg, size_t len)
{
  const fbField *f = fbSchema_Find(&fbSpeciesSchema, field);
  if (f == NULL || !is_live(field)) {
    return refuse(msg, len, field, "takes effect on restart (R)");
  }
  fbSpeciesDef def = *fbSim_SpeciesDef(sim, s);
  char why[256];
  if (f->kind == FB_FIELD_CHOICE) {
    if (fbField_ChoiceName(f, (int)value) == NULL) {
      return refuse(msg, len, field, "not one of its choices");
    }
    int choice = (int)value;
    memcpy((char *)&def + f->offset, &choice, sizeof choice);
  } else if (f->derived && value < 0) {
    memcpy((char *)&def + f->offset, &value, sizeof value);
  } else if (!fbField_SetNumber(f, &def, value, why, sizeof why)) {
    return refuse(msg, len, field, why);
  }
  return fbSim_SetSpecies(sim, s, &def, msg, len);
}

double fbLive_SpeciesField(const fbSim *sim, int s, const char *field)
{
  const fbField *f = fbSchema_Find(&fbSpeciesSchema, field);
  const char *at = (const char *)fbSim_SpeciesDef(sim, s) + (f ? f->offset : 0);
  if (f != NULL && f->kind == FB_FIELD_BOOL) {
    bool on;
    memcpy(&on, at, sizeof on);
    return on ? 1.0 : 0.0;
  }
  if (f == NULL || (f->kind != FB_FIELD_NUMBER && f->kind != FB_FIELD_INT && f->kind != FB_FIELD_CHOICE)) {
    return NAN;
  }
  return fbNumberAt(at, f->kind != FB_FIELD_NUMBER);
}

// species.rule.field=value: the slot's weight, or one of the module's parameters (fbLive_SetParam).
// The rule's description takes the value too, so that a save of the rule's file (which loads it
// again from its description) keeps it.
static bool set_rule(fbSim *sim, int s, const char *rest, const char *value, char *msg, size_t len)
{
  const char *dot = strchr(rest, '.');
  char rule[FB_NAME_LEN];
  snprintf(rule, sizeof rule, "%.*s", (int)(dot - rest), rest);
  int k = fbSim_FindRule(sim, s, rule);
  if (k < 0) {
    snprintf(msg, len, "species '%s' has no field or rule '%s'", fbSim_World(sim)->species[s].name, rule);
    return false;
  }
  const char *field = dot + 1;
  fbRuleDef *described = fbSim_RuleDescription(sim, s, k);
  const fbField *f = fbSchema_Find(&fbRuleSchema, field);
  char why[1024];
  if (f != NULL && strcmp(field, "weight") == 0) {
    fbRuleDef def = *described;
    if (!fbField_Parse(f, &def, value, why, sizeof why)) {
      return refuse(msg, len, rest, why);
    }
    described->weight = def.weight;
    fbSim_SetWeight(sim, s, k, def.weight);
    return true;
  }
  if (f != NULL) {
    return refuse(msg, len, rest, "takes effect on restart (R)");
  }
  return fbLive_SetParam(sim, s, k, field, value, msg, len);
}

bool fbLive_SetParam(fbSim *sim, int s, int k, const char *name, const char *text, char *msg, size_t len)
{
  const fbParamSpec *spec = fbSim_ParamSpec(sim, s, k, name);
  fbParamDef p = {.kind = FB_VALUE_NUMBER};
  if (spec == NULL) {  // the message lists the parameters it has
    snprintf(p.name, sizeof p.name, "%.*s", (int)sizeof p.name - 1, name);
    return fbSim_SetParamValue(sim, s, k, &p, msg, len);
  }
  char why[1024];
  if (!fbParams_Parse(spec, text, &p, why, sizeof why)) {
    snprintf(msg, len, "%s.%s: %s", fbSim_RuleName(sim, s, k), name, why);
    return false;
  }
  if (!fbSim_SetParamValue(sim, s, k, &p, msg, len)) {
    return false;
  }
  fbRuleDef_SetParam(fbSim_RuleDescription(sim, s, k), &p);
  return true;
}

bool fbLive_Set(fbSim *sim, const char *set, char *msg, size_t len)
{
  const char *eq = strchr(set, '=');
  const char *dot = strchr(set, '.');
  if (eq == NULL || dot == NULL || dot > eq || eq - set >= 256) {
    return refuse(msg, len, set, "expected SPECIES.FIELD=VALUE");
  }
  char species[FB_NAME_LEN], rest[256];
  snprintf(species, sizeof species, "%.*s", (int)(dot - set), set);
  snprintf(rest, sizeof rest, "%.*s", (int)(eq - dot - 1), dot + 1);
  const char *value = eq + 1;
  int s = fbWorld_FindSpecies(fbSim_World(sim), species);
  if (s < 0) {
    return refuse(msg, len, set, "no such species (world fields take effect on restart)");
  }
  const fbField *f = fbSchema_Find(&fbSpeciesSchema, rest);
  if (f == NULL && strchr(rest, '.') != NULL) {
    return set_rule(sim, s, rest, value, msg, len);
  }
  if (f == NULL || !is_live(rest)) {
    return refuse(msg, len, rest, f == NULL ? "no such species field" : "takes effect on restart (R)");
  }
  fbSpeciesDef def = *fbSim_SpeciesDef(sim, s);
  char why[256];
  if (!fbField_Parse(f, &def, value, why, sizeof why)) {
    return refuse(msg, len, rest, why);
  }
  return fbSim_SetSpecies(sim, s, &def, msg, len);
}
