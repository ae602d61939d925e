// lua_table.h — reading a scenario's Lua tables into defs through a schema, one message per mistake naming the file and the field.
#ifndef FB_LUA_TABLE_H
#define FB_LUA_TABLE_H

#include <lua.h>

#include "schema.h"

// Where a value sits in the scenario, for messages: "scripts/flock.lua: species[1].vision.fov: ...".
typedef struct fbTableReader {
  lua_State *L;
  const char *file;
  char *err;
  size_t errlen;
} fbTableReader;

// Writes "file: where.key: message" into the reader's err and returns false.
bool fbTable_Fail(fbTableReader *r, const char *where, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

// Reads every field of the schema from the table at index t into def: fields under a dotted name
// from their sub-table (vision.fov from t.vision), absent ones keep their value in def. Refuses keys
// the schema does not know at every level, and values of the wrong type or out of range.
// TABLE fields are left to the caller.
bool fbTable_ReadDef(fbTableReader *r, int t, const char *where, const fbSchema *s, void *def);

// Reads the list at index t as exactly n finite numbers (the {x, y, r} shorthand).
bool fbTable_Numbers(fbTableReader *r, int t, const char *where, const char *key, double *out, int n);

// Pushes t[key] if it is a table and returns its absolute index; 0 (nothing pushed) if absent;
// sets *ok = false with a message if it is something else.
int fbTable_Open(fbTableReader *r, int t, const char *where, const char *key, bool *ok);

#endif
