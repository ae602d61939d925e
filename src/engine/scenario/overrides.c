// overrides.c — --set NAME=VALUE on a scenario's description, field by field through the schema.
#include "overrides.h"

#include <errno.h>
#include <string.h>

#include "closest_name.h"
#include "names.h"
#include "schema.h"

bool fbOverrides_ParseParam(const char *name, const char *text, fbParamDef *p)
{
  memset(p, 0, sizeof *p);
  if (strlen(name) >= FB_NAME_LEN || strlen(text) >= FB_PARAM_TEXT) {
    return false;
  }
  snprintf(p->name, sizeof p->name, "%s", name);
  snprintf(p->text, sizeof p->text, "%s", text);  // as written, whatever it reads as: see merge_overrides
  char *end;
  errno = 0;
  long long i = strtoll(text, &end, 10);
  if (end != text && *end == '\0' && errno == 0) {
    p->kind = FB_VALUE_INTEGER;
    p->number = (double)i;
    return true;
  }
  double v = strtod(text, &end);
  if (end != text && *end == '\0') {
    p->kind = FB_VALUE_NUMBER;
    p->number = v;
  } else if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0) {
    p->kind = FB_VALUE_BOOL;
    p->number = text[0] == 't';
  } else {
    p->kind = FB_VALUE_STRING;
  }
  return true;
}

// What a message echoes of a --set: all of it when it is one line; else its name alone, cut at any
// control character (the value, or the name, could hold the very line break that would start a
// line of its own in the message).
static const char *echo(const char *set, char *buf, size_t len)
{
  char why[160];
  if (fbName_CheckLine(set, strlen(set), why, sizeof why)) {
    return set;
  }
  size_t shown = strcspn(set, "=");
  for (size_t k = 0; k < shown; ++k) {
    if ((unsigned char)set[k] < 0x20 || set[k] == 0x7f) {
      shown = k;
    }
  }
  snprintf(buf, len, "%.*s%s", (int)shown, set, set[shown] == '=' ? " (its value is not one line)" : "\u2026");
  return buf;
}

/*
 * "Did you mean" for a name --set does not know: the nearest by edit distance (closest_name.h) of
 * every name it would know in this scenario — the world's and terrain's fields, each species' fields
 * under its name, each rule slot's fields under species.rule. A rule's own parameters are its
 * module's, unread here: for those the typed parameter is offered under every rule, so a misspelt
 * rule or species name still finds its match (a misspelt parameter is caught, with its own
 * suggestion, when the rule loads: rule_module.c). Writes "; did you mean 'NAME'?" or "".
 */
static void offer_schema(fbClosestName *c, const fbSchema *schema, const char *prefix)
{
  char name[2 * FB_CLOSEST_NAME_LEN];
  for (int k = 0; k < schema->count; ++k) {
    if (schema->fields[k].kind != FB_FIELD_TABLE) {
      snprintf(name, sizeof name, "%s%s", prefix, schema->fields[k].name);
      fbClosestName_Offer(c, name);
    }
  }
}

static void did_you_mean(const fbScenarioDef *d, const char *typed, char *out, size_t len)
{
  fbClosestName c;
  fbClosestName_Begin(&c, typed);
  offer_schema(&c, &fbScenarioSchema, "");
  const char *second_dot = strchr(typed, '.') ? strchr(strchr(typed, '.') + 1, '.') : NULL;
  char prefix[FB_CLOSEST_NAME_LEN], name[2 * FB_CLOSEST_NAME_LEN];  // too long a name is never offered
  for (int i = 0; i < d->species_count; ++i) {
    const fbSpeciesDef *s = &d->species[i];
    snprintf(prefix, sizeof prefix, "%s.", s->name);
    offer_schema(&c, &fbSpeciesSchema, prefix);
    for (int k = 0; k < s->rule_count; ++k) {
      snprintf(prefix, sizeof prefix, "%s.%s.", s->name, fbRuleDef_Name(&s->rules[k]));
      offer_schema(&c, &fbRuleSchema, prefix);
      if (second_dot != NULL) {
        snprintf(name, sizeof name, "%s%s", prefix, second_dot + 1);
        fbClosestName_Offer(&c, name);
      }
    }
  }
  const char *best = fbClosestName_Suggestion(&c);
  snprintf(out, len, "%s%s%s", best[0] ? "; did you mean '" : "", best, best[0] ? "'?" : "");
}

// Writes text into field f of def; the message names where the field sits in the scenario.
static bool set_field(const fbField *f, void *def, const char *value, const char *set, const char *file,
                      const char *where, char *err, size_t errlen)
{
  char msg[256];
  if (!fbName_CheckLine(value, strlen(value), msg, sizeof msg)) {  // echoed by name: the value is not one line
    snprintf(err, errlen, "--set %.*s: %s: %s%s%s: %s", (int)strcspn(set, "="), set, file, where, where[0] ? "." : "",
             f->name, msg);
    return false;
  }
  if (fbField_Parse(f, def, value, msg, sizeof msg)) {
    return true;
  }
  snprintf(err, errlen, "--set %s: %s: %s%s%s: %s", set, file, where, where[0] ? "." : "", f->name, msg);
  return false;
}

// species.rule.field: a slot field (weight, force) or else one of the module's parameters.
static bool set_rule(const fbScenarioDef *d, const char *name, fbSpeciesDef *s, int index, const char *rest,
                     const char *value, const char *set, const char *file, char *err, size_t errlen)
{
  const char *dot = strchr(rest, '.');
  char rule_name[FB_NAME_LEN];
  snprintf(rule_name, sizeof rule_name, "%.*s", (int)(dot - rest), rest);
  fbRuleDef *rule = fbSpeciesDef_FindRule(s, rule_name);
  if (rule == NULL) {
    char shown[320], hint[FB_CLOSEST_NAME_LEN + 32];
    did_you_mean(d, name, hint, sizeof hint);
    snprintf(err, errlen, "--set %s: species '%s' has no field or rule '%s'%s", echo(set, shown, sizeof shown),
             s->name, rule_name, hint);
    return false;
  }
  char where[128];
  snprintf(where, sizeof where, "species[%d].rules[%d]", index + 1, (int)(rule - s->rules) + 1);
  const char *field = dot + 1;
  const fbField *f = fbSchema_Find(&fbRuleSchema, field);
  if (f != NULL && f->kind != FB_FIELD_TABLE) {
    return set_field(f, rule, value, set, file, where, err, errlen);
  }
  fbParamDef p;
  char why[160];
  if (!fbName_CheckParamText(value, strlen(value), why, sizeof why)) {
    // the name alone: the value could hold the very line break refused
    snprintf(err, errlen, "--set %.*s: %s: %s.params.%s: %s", (int)strcspn(set, "="), set, file, where, field, why);
    return false;
  }
  if (strchr(field, '.') != NULL || !fbOverrides_ParseParam(field, value, &p) || !fbRuleDef_SetParam(rule, &p)) {
    char shown[320];
    snprintf(err, errlen, "--set %s: %s.params.%s: not a parameter name, or too many parameters",
             echo(set, shown, sizeof shown), where, field);
    return false;
  }
  return true;
}

static bool apply_one(fbScenarioDef *d, const char *set, char *err, size_t errlen)
{
  const char *file = d->path[0] ? d->path : "the scenario";
  const char *eq = strchr(set, '=');
  char name[256], shown[320];
  if (eq == NULL || eq == set || (size_t)(eq - set) >= sizeof name) {
    snprintf(err, errlen, "--set %s: expected NAME=VALUE", echo(set, shown, sizeof shown));
    return false;
  }
  snprintf(name, sizeof name, "%.*s", (int)(eq - set), set);
  char why[160];
  if (!fbName_CheckLine(name, strlen(name), why, sizeof why)) {
    snprintf(err, errlen, "--set %s: the name %s", echo(set, shown, sizeof shown), why);
    return false;
  }
  const char *value = eq + 1;
  const fbField *f = fbSchema_Find(&fbScenarioSchema, name);
  if (f != NULL && f->kind != FB_FIELD_TABLE) {
    return set_field(f, d, value, set, file, "", err, errlen);
  }
  const char *dot = strchr(name, '.');
  char species[FB_NAME_LEN] = "";
  if (dot != NULL && dot - name < FB_NAME_LEN) {
    snprintf(species, sizeof species, "%.*s", (int)(dot - name), name);
  }
  fbSpeciesDef *s = fbScenarioDef_FindSpecies(d, species);
  char hint[FB_CLOSEST_NAME_LEN + 32];
  if (s == NULL) {
    did_you_mean(d, name, hint, sizeof hint);
    snprintf(err, errlen, "--set %s: %s has no world field, terrain field or species named '%s'%s",
             echo(set, shown, sizeof shown), file, species[0] ? species : name, hint);
    return false;
  }
  int index = (int)(s - d->species);
  char where[32];
  snprintf(where, sizeof where, "species[%d]", index + 1);
  const char *rest = dot + 1;
  f = fbSchema_Find(&fbSpeciesSchema, rest);
  if (f != NULL) {
    return set_field(f, s, value, set, file, where, err, errlen);
  }
  if (strchr(rest, '.') != NULL) {
    return set_rule(d, name, s, index, rest, value, set, file, err, errlen);
  }
  did_you_mean(d, name, hint, sizeof hint);
  snprintf(err, errlen, "--set %s: species '%s' has no field or rule '%s'%s", echo(set, shown, sizeof shown), s->name,
           rest, hint);
  return false;
}

bool fbOverrides_Apply(fbScenarioDef *d, const char *const *sets, int count, char *err, size_t errlen)
{
  for (int k = 0; k < count; ++k) {
    if (!apply_one(d, sets[k], err, errlen)) {
      return false;
    }
  }
  return true;
}
