// schema.h — every field of a scenario, a species, a rule slot and a path, by the name a scenario writes: one table that the Lua reader, --set and C-built worlds all go through.
#ifndef FB_SCHEMA_H
#define FB_SCHEMA_H

#include "defs.h"

typedef enum fbFieldKind {
  FB_FIELD_NUMBER,   // a double in [lo, hi]
  FB_FIELD_INT,      // an int in [lo, hi] (any number, truncated toward zero)
  FB_FIELD_BOOL,
  FB_FIELD_TEXT,     // a string of 1 to size - 1 bytes
  FB_FIELD_CHOICE,   // one of its names (fbField_Choice), stored as its int value
  FB_FIELD_LIST,     // exactly size numbers, each in [lo, hi]: { 10, 20, 30 } (on the command line: 10,20,30)
  FB_FIELD_RANGE,    // a number (min = max) or { min, max } with lo <= min <= max <= hi
  FB_FIELD_TABLE,    // a structure the scenario reader reads itself (rules, obstacles, hooks): not settable
} fbFieldKind;

// The names of a CHOICE field: a list here, or kept with what they name elsewhere (the combiners:
// fbAccum_Choice reads accumulate.c's table).
typedef struct fbChoices {
  const fbChoice *list;                   // ends with a NULL name; or NULL and
  bool (*at)(int k, fbChoice *out);       // the k-th name, false past the last
} fbChoices;

typedef struct fbField {
  const char *name;            // dotted below a table: "max_speed", "vision.fov", "spawn.speed"
  fbFieldKind kind;
  size_t offset;               // into the def struct
  int size;                    // TEXT: buffer size; LIST: how many numbers
  double lo, hi;               // NUMBER, INT, LIST, RANGE
  const struct fbChoices *choices;  // CHOICE: its names (read them with fbField_Choice)
  bool derived;                // a negative value (the default) means "derived from other fields"
                               // (RANGE: a negative max)
  const char *help;            // one line, with units
} fbField;

typedef struct fbSchema {
  const char *what;            // for messages: "scenario", "species", "rule"
  const fbField *fields;
  int count;
  bool positional;             // the table may also hold list items (a rule slot's { "cohesion", ... })
} fbSchema;

extern const fbSchema fbScenarioSchema;  // fbScenarioDef: name, world.*, terrain.*, and the structured parts
extern const fbSchema fbSpeciesSchema;   // fbSpeciesDef
extern const fbSchema fbRuleSchema;      // fbRuleDef (the slot; a rule's own parameters are its module's)
extern const fbSchema fbPathSchema;      // fbPathDef (points and speed are read by scenario_paths.c)
extern const fbSchema fbFlowSchema;      // fbFlowDef (fn is sampled by scenario_flow.c)
extern const fbSchema fbRouteSchema;     // a flow's route = { ... }, into fbFlowDef (to, cost, walls read by scenario_flow.c)

const fbField *fbSchema_Find(const fbSchema *s, const char *name);

// The k-th name a CHOICE field accepts (aliases after the names they stand for): false past the last.
bool fbField_Choice(const fbField *f, int k, fbChoice *out);

// The name of a CHOICE field's value ("weighted"), NULL if it has none.
const char *fbField_ChoiceName(const fbField *f, int value);

// True if `key` may appear in the table at `prefix` ("" for the top, "vision" for species.vision).
bool fbSchema_HasKey(const fbSchema *s, const char *prefix, const char *key);

// A switch: a BOOL field that also names a table of fields ("orca" beside "orca.time_horizon"). A
// scenario writes either `orca = true` (the table's fields keep their defaults) or `orca = { ... }`,
// which switches it on; --set reaches both (crowd.orca=false, crowd.orca.time_horizon=5).
bool fbSchema_IsSwitch(const fbSchema *s, const char *name);

// The keys allowed in the table at `prefix`, comma-separated, for "unknown field (known: ...)".
void fbSchema_Keys(const fbSchema *s, const char *prefix, char *out, size_t len);

// Typed writes into a def, each checked against the field; on failure msg says why, without the
// field's name ("must be between 0 and 360 (got 400)").
bool fbField_SetNumber(const fbField *f, void *def, double v, char *msg, size_t len);
bool fbField_SetBool(const fbField *f, void *def, bool v, char *msg, size_t len);
bool fbField_SetText(const fbField *f, void *def, const char *text, char *msg, size_t len);
bool fbField_SetList(const fbField *f, void *def, const double *v, int n, char *msg, size_t len);

// A value written on the command line: 3.5, true, wrap, 10,20,30.
bool fbField_Parse(const fbField *f, void *def, const char *text, char *msg, size_t len);

// Checks every field of a def as a scenario file's reader would have (a world built in C gets the
// checks a scenario file gets): numbers finite and within their range (NaN only in the two fields
// whose default NaN means "not given": spawn.area, spawn.heading), a choice one of its values, a
// text ended within its buffer. On failure names the field in `field` and says why in msg.
bool fbSchema_Check(const fbSchema *s, const void *def, const char **field, char *msg, size_t len);

#endif
