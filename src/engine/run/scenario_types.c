// scenario_types.c — the LuaLS classes of a scenario file's table, one ---@field per row of schema.c's tables.
#include "scenario_types.h"

#include <ctype.h>
#include <string.h>

#include "schema.h"

/*
 * Each schema (scenario, species, rule slot, path, flow field, route) becomes a class; a dotted
 * row ("world.dt", "vision.fov") goes into the class of its group (fbScenarioWorld,
 * fbScenarioSpeciesVision), named by the schema's class and the group, and the group's key gets
 * that class. A group whose key is also a row of its own (a switch: `orca = true` or `orca = {...}`)
 * gets both types. The kinds map to types one for one (a CHOICE to the union of its names); the
 * TABLE rows, which the scenario reader reads itself and schema.c does not describe, take their
 * types from the one list below. Every key is optional: the engine has a default for each.
 */

typedef struct SchemaClass {
  const fbSchema *schema;
  const char *class;
  const char *about;
} SchemaClass;

static const SchemaClass CLASSES[] = {
    {&fbScenarioSchema, "fbScenario",
     "A scenario file's table (docs/scenarios.md): put `---@type fbScenario` on the table it returns"},
    {&fbSpeciesSchema, "fbScenarioSpecies", "One species of a scenario's `species` list"},
    {&fbRuleSchema, "fbScenarioRule", "One rule slot of a species' `rules`: { \"cohesion\", weight = 2, params = { ... } }"},
    {&fbPathSchema, "fbScenarioPath", "One path of a scenario's `paths`, with the object that moves along it"},
    {&fbFlowSchema, "fbScenarioFlowField", "One field of a scenario's `flow_fields`: a PNG, a function, or a route"},
    {&fbRouteSchema, "fbScenarioRoute", "A flow field's `route`: the engine computes the field from the goal"},
};

// The types of TABLE rows: what scenario.c, scenario_paths.c, scenario_flow.c and hooks.c read.
typedef struct TableType {
  const fbSchema *schema;
  const char *name;
  const char *type;
} TableType;

static const TableType TABLE_TYPES[] = {
    {&fbScenarioSchema, "obstacles", "({ circle: number[] }|{ polygon: number[][] })[]"},
    {&fbScenarioSchema, "goals", "table<string, number[]>"},
    {&fbScenarioSchema, "paths", "fbScenarioPath[]"},
    {&fbScenarioSchema, "flow_fields", "table<string, fbScenarioFlowField>"},
    {&fbScenarioSchema, "regions", "table<string, number[][]>"},
    {&fbScenarioSchema, "behaviours", "string[]"},
    {&fbScenarioSchema, "species", "fbScenarioSpecies[]"},
    {&fbScenarioSchema, "on_step", "fun(step: integer)"},
    {&fbScenarioSchema, "on_key", "fun(key: string)"},
    {&fbScenarioSchema, "metrics", "{ [1]: string, [2]: fun(): number }[]"},
    {&fbSpeciesSchema, "agents", "number[][]"},
    {&fbSpeciesSchema, "vision.sees", "string[]"},
    {&fbSpeciesSchema, "rules", "(string|fbScenarioRule)[]"},
    {&fbRuleSchema, "params", "table<string, number|string|boolean>"},
    {&fbPathSchema, "points", "number[][]"},
    {&fbPathSchema, "speed", "number|number[][]"},
    {&fbFlowSchema, "fn", "fun(x: number, y: number): number, number"},
    {&fbFlowSchema, "route", "fbScenarioRoute"},
    {&fbRouteSchema, "to", "number[]|number[][]|string"},
    {&fbRouteSchema, "cost", "\"distance\"|\"energy\"|fun(x: number, y: number): number"},
    {&fbRouteSchema, "walls", "string[]"},
};

static const char *table_type(const fbSchema *s, const char *name)
{
  for (size_t k = 0; k < sizeof TABLE_TYPES / sizeof TABLE_TYPES[0]; ++k) {
    if (TABLE_TYPES[k].schema == s && strcmp(TABLE_TYPES[k].name, name) == 0) {
      return TABLE_TYPES[k].type;
    }
  }
  return "table";  // a TABLE row added to schema.c without a type here: still offered, as a table
}

static void write_type(FILE *out, const fbSchema *s, const fbField *f)
{
  switch (f->kind) {
    case FB_FIELD_NUMBER: fputs("number", out); break;
    case FB_FIELD_INT: fputs("integer", out); break;
    case FB_FIELD_BOOL: fputs("boolean", out); break;
    case FB_FIELD_TEXT: fputs("string", out); break;
    case FB_FIELD_LIST: fputs("number[]", out); break;
    case FB_FIELD_RANGE: fputs("number|number[]", out); break;
    case FB_FIELD_TABLE: fputs(table_type(s, f->name), out); break;
    case FB_FIELD_CHOICE: {
      fbChoice c;
      for (int k = 0; fbField_Choice(f, k, &c); ++k) {
        fprintf(out, "%s\"%s\"", k > 0 ? "|" : "", c.name);
      }
      break;
    }
  }
}

// The class of group `group` (its key's first `n` bytes) of a schema's class: fbScenario + World.
static void write_group_class(FILE *out, const char *class, const char *group, size_t n)
{
  fprintf(out, "%s%c%.*s", class, toupper((unsigned char)group[0]), (int)n - 1, group + 1);
}

// The rows of a schema whose name starts with `prefix` (a group and its dot, or "" for the top),
// one level deep; a group met at the top is written as a key of its group's class.
static void write_rows(FILE *out, const SchemaClass *c, const char *prefix)
{
  size_t p = strlen(prefix);
  for (int k = 0; k < c->schema->count; ++k) {
    const fbField *f = &c->schema->fields[k];
    if (strncmp(f->name, prefix, p) != 0) {
      continue;
    }
    const char *key = f->name + p;
    const char *dot = strchr(key, '.');
    if (dot != NULL) {
      FB_ASSERT(p == 0);  // one level of groups: schema.c has no deeper rows
      size_t n = (size_t)(dot - key);
      bool first = true;  // the group's first row writes its key (a switch's own row writes it instead)
      for (int j = 0; j < k && first; ++j) {
        const char *other = c->schema->fields[j].name;
        first = !(strncmp(other, key, n) == 0 && (other[n] == '.' || other[n] == '\0'));
      }
      if (first) {
        fprintf(out, "---@field %.*s? ", (int)n, key);
        write_group_class(out, c->class, key, n);
        fprintf(out, " the %.*s table\n", (int)n, key);
      }
      continue;
    }
    fprintf(out, "---@field %s? ", key);
    write_type(out, c->schema, f);
    if (p == 0 && fbSchema_IsSwitch(c->schema, f->name)) {
      fputc('|', out);
      write_group_class(out, c->class, key, strlen(key));
    }
    fprintf(out, " %s\n", f->help);
  }
}

static void write_class(FILE *out, const SchemaClass *c)
{
  fprintf(out, "\n---%s.\n---@class %s\n", c->about, c->class);
  if (c->schema->positional) {
    fprintf(out, "---@field [1]? string the same as `%s`\n", c->schema->fields[0].name);
  }
  write_rows(out, c, "");
  // Each group once, in the order of its first row.
  for (int k = 0; k < c->schema->count; ++k) {
    const char *name = c->schema->fields[k].name, *dot = strchr(name, '.');
    if (dot == NULL) {
      continue;
    }
    size_t n = (size_t)(dot - name);
    bool first = true;
    for (int j = 0; j < k && first; ++j) {
      first = strncmp(c->schema->fields[j].name, name, n + 1) != 0;
    }
    if (first) {
      char prefix[64];
      snprintf(prefix, sizeof prefix, "%.*s.", (int)n, name);
      fprintf(out, "\n---The `%.*s` table of %s.\n---@class ", (int)n, name, c->class);
      write_group_class(out, c->class, name, n);
      fputc('\n', out);
      write_rows(out, c, prefix);
    }
  }
}

void fbScenarioTypes_Write(FILE *out)
{
  for (size_t k = 0; k < sizeof CLASSES / sizeof CLASSES[0]; ++k) {
    write_class(out, &CLASSES[k]);
  }
}
