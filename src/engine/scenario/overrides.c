// overrides.c — --set NAME=VALUE on a scenario's description, field by field through the schema.
#include "overrides.h"

#include <errno.h>
#include <string.h>

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
static bool set_rule(fbSpeciesDef *s, int index, const char *rest, const char *value, const char *set,
                     const char *file, char *err, size_t errlen)
{
  const char *dot = strchr(rest, '.');
  char rule_name[FB_NAME_LEN];
  snprintf(rule_name, sizeof rule_name, "%.*s", (int)(dot - rest), rest);
  fbRuleDef *rule = fbSpeciesDef_FindRule(s, rule_name);
  if (rule == NULL) {
    char shown[320];
    snprintf(err, errlen, "--set %s: species '%s' has no field or rule '%s'", echo(set, shown, sizeof shown), s->name,
             rule_name);
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
  if (s == NULL) {
    snprintf(err, errlen, "--set %s: %s has no world field, terrain field or species named '%s'",
             echo(set, shown, sizeof shown), file,
             species[0] ? species : name);
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
    return set_rule(s, index, rest, value, set, file, err, errlen);
  }
  snprintf(err, errlen, "--set %s: species '%s' has no field or rule '%s'", echo(set, shown, sizeof shown), s->name,
           rest);
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
