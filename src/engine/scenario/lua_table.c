// lua_table.c — reading a scenario's Lua tables into defs through a schema, with messages that name the field.
#include "lua_table.h"

#include "names.h"

#include <stdarg.h>
#include <string.h>

bool fbTable_Fail(fbTableReader *r, const char *where, const char *key, const char *fmt, ...)
{
  char msg[512];
  va_list args;
  va_start(args, fmt);
  vsnprintf(msg, sizeof msg, fmt, args);
  va_end(args);
  bool dot = where[0] != '\0' && key[0] != '\0';
  snprintf(r->err, r->errlen, "%s: %s%s%s: %s", r->file, where, dot ? "." : "", key, msg);
  return false;
}

int fbTable_Open(fbTableReader *r, int t, const char *where, const char *key, bool *ok)
{
  int type = lua_getfield(r->L, t, key);
  if (type == LUA_TTABLE) {
    return lua_gettop(r->L);
  }
  if (type != LUA_TNIL) {
    *ok = fbTable_Fail(r, where, key, "expected a table, got a %s", lua_typename(r->L, type));
  }
  lua_pop(r->L, 1);
  return 0;
}

bool fbTable_Numbers(fbTableReader *r, int t, const char *where, const char *key, double *out, int n)
{
  if (!lua_istable(r->L, t) || (int)lua_rawlen(r->L, t) != n) {
    return fbTable_Fail(r, where, key, "expected a list of %d numbers", n);
  }
  for (int k = 0; k < n; ++k) {
    lua_rawgeti(r->L, t, k + 1);
    int isnum = 0;
    out[k] = lua_tonumberx(r->L, -1, &isnum);
    lua_pop(r->L, 1);
    if (!isnum || !isfinite(out[k])) {
      return fbTable_Fail(r, where, key, "item %d: expected a finite number", k + 1);
    }
  }
  return true;
}

// Refuses keys the schema does not know in the table at t, which sits at `prefix` ("" or "vision").
static bool check_keys(fbTableReader *r, int t, const char *where, const fbSchema *s, const char *prefix)
{
  lua_State *L = r->L;
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    lua_pop(L, 1);
    bool listed = lua_type(L, -1) == LUA_TNUMBER && s->positional && prefix[0] == '\0';
    if (!listed && lua_type(L, -1) != LUA_TSTRING) {
      lua_pop(L, 1);
      return fbTable_Fail(r, where, prefix, "unexpected non-name key");
    }
    const char *key = listed ? NULL : lua_tostring(L, -1);
    if (key != NULL && !fbSchema_HasKey(s, prefix, key)) {
      char known[512], name[160];
      fbSchema_Keys(s, prefix, known, sizeof known);
      snprintf(name, sizeof name, "%s%s%s", prefix, prefix[0] ? "." : "", key);
      bool ok = fbTable_Fail(r, where, name, "unknown field (known: %s)", known);
      lua_pop(L, 1);
      return ok;
    }
  }
  return true;
}

// Reads the value at the top of the stack into field f of def (the value stays on the stack). A
// switch (fbSchema_IsSwitch) given as a table of its fields is on.
static bool read_value(fbTableReader *r, const fbField *f, const char *where, void *def, bool is_switch)
{
  lua_State *L = r->L;
  int type = lua_type(L, -1);
  if (is_switch && type == LUA_TTABLE) {
    lua_pushboolean(L, 1);
    lua_replace(L, -2);
    type = LUA_TBOOLEAN;
  }
  char msg[256];
  bool ok = true;
  switch (f->kind) {
  case FB_FIELD_NUMBER:
  case FB_FIELD_INT:
    if (type != LUA_TNUMBER) {
      return fbTable_Fail(r, where, f->name, "expected a number, got a %s", lua_typename(L, type));
    }
    ok = fbField_SetNumber(f, def, lua_tonumber(L, -1), msg, sizeof msg);
    break;
  case FB_FIELD_BOOL:
    if (type != LUA_TBOOLEAN) {
      return fbTable_Fail(r, where, f->name, "expected true or false, got a %s", lua_typename(L, type));
    }
    ok = fbField_SetBool(f, def, lua_toboolean(L, -1), msg, sizeof msg);
    break;
  case FB_FIELD_TEXT:
  case FB_FIELD_CHOICE:
    if (type != LUA_TSTRING) {
      return fbTable_Fail(r, where, f->name, "expected a string, got a %s", lua_typename(L, type));
    }
    size_t len = 0;
    const char *text = lua_tolstring(L, -1, &len);
    if (!fbName_CheckLine(text, len, msg, sizeof msg)) {
      return fbTable_Fail(r, where, f->name, "%s", msg);
    }
    ok = fbField_SetText(f, def, text, msg, sizeof msg);
    break;
  case FB_FIELD_RANGE:
    if (type == LUA_TNUMBER) {
      double v = lua_tonumber(L, -1);
      ok = fbField_SetList(f, def, &v, 1, msg, sizeof msg);
      break;
    }
    if (type != LUA_TTABLE || lua_rawlen(L, -1) != 2) {
      return fbTable_Fail(r, where, f->name, "expected a number or {min, max}");
    }
    /* fall through */
  case FB_FIELD_LIST: {
    double v[8];
    int n = f->kind == FB_FIELD_RANGE ? 2 : f->size;
    if (!fbTable_Numbers(r, lua_gettop(L), where, f->name, v, n)) {
      return false;
    }
    ok = fbField_SetList(f, def, v, n, msg, sizeof msg);
    break;
  }
  case FB_FIELD_TABLE: return true;
  }
  return ok || fbTable_Fail(r, where, f->name, "%s", msg);
}

/*
 * A field named "a.b" lives in t.a.b. Each sub-table is key-checked the first time a field below
 * it is read, so a typo such as vision.fvo is refused wherever it sits. An absent sub-table or
 * value leaves the def's default.
 */
bool fbTable_ReadDef(fbTableReader *r, int t, const char *where, const fbSchema *s, void *def)
{
  lua_State *L = r->L;
  t = lua_absindex(L, t);
  if (!check_keys(r, t, where, s, "")) {
    return false;
  }
  char checked[8][FB_NAME_LEN];
  int checked_count = 0;
  for (int k = 0; k < s->count; ++k) {
    const fbField *f = &s->fields[k];
    if (f->kind == FB_FIELD_TABLE) {
      continue;
    }
    int top = lua_gettop(L);
    int table = t;
    char prefix[FB_NAME_LEN] = "";
    const char *name = f->name;
    const char *dot;
    bool ok = true, present = true;
    while (ok && present && (dot = strchr(name, '.')) != NULL) {
      char part[FB_NAME_LEN];
      snprintf(part, sizeof part, "%.*s", (int)(dot - name < FB_NAME_LEN - 1 ? dot - name : FB_NAME_LEN - 1), name);
      size_t used = strlen(prefix);
      if (used + strlen(part) + 2 > sizeof prefix) {
        break;  // no field name in the schema is this deep
      }
      snprintf(prefix + used, sizeof prefix - used, "%s%s", used ? "." : "", part);
      int type = lua_getfield(L, table, part);
      present = type == LUA_TTABLE;
      bool switched = type == LUA_TBOOLEAN && fbSchema_IsSwitch(s, prefix);  // orca = true: the defaults
      if (type != LUA_TTABLE && type != LUA_TNIL && !switched) {
        ok = fbTable_Fail(r, where, prefix, "expected a table, got a %s", lua_typename(L, type));
      }
      table = lua_gettop(L);
      bool seen = false;
      for (int c = 0; c < checked_count && !seen; ++c) {
        seen = strcmp(checked[c], prefix) == 0;
      }
      if (ok && present && !seen && checked_count < 8) {
        snprintf(checked[checked_count++], FB_NAME_LEN, "%s", prefix);
        ok = check_keys(r, table, where, s, prefix);
      }
      name = dot + 1;
    }
    if (ok && present && lua_getfield(L, table, name) != LUA_TNIL) {
      ok = read_value(r, f, where, def, fbSchema_IsSwitch(s, f->name));
    }
    lua_settop(L, top);
    if (!ok) {
      return false;
    }
  }
  return true;
}
