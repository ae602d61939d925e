// params.c — reading a module's declared parameters, and checking values against them.
#include "params.h"

#include <lauxlib.h>
#include <string.h>

#include "names.h"

static int compare_specs(const void *a, const void *b)
{
  return strcmp(((const fbParamSpec *)a)->name, ((const fbParamSpec *)b)->name);
}

// The default at the top of the stack into spec; false if it is not a number, boolean or string,
// and for a string that is not one short line of text, with the reason in why (else why stays "").
static bool take_default(lua_State *L, fbParamSpec *spec, char *why, size_t whylen)
{
  size_t len = 0;
  why[0] = '\0';
  switch (lua_type(L, -1)) {
  case LUA_TNUMBER:
    spec->kind = lua_isinteger(L, -1) ? FB_VALUE_INTEGER : FB_VALUE_NUMBER;
    spec->number = lua_tonumber(L, -1);
    return isfinite(spec->number);
  case LUA_TBOOLEAN:
    spec->kind = FB_VALUE_BOOL;
    spec->number = lua_toboolean(L, -1);
    return true;
  case LUA_TSTRING:
    spec->kind = FB_VALUE_STRING;
    snprintf(spec->text, sizeof spec->text, "%s", lua_tolstring(L, -1, &len));
    return fbName_CheckParamText(lua_tostring(L, -1), len, why, whylen);
  default: return false;
  }
}

// A declaration { default, min = ..., max = ..., help = "..." } at index t.
static bool read_declaration(lua_State *L, int t, fbParamSpec *spec, const char *what, char *err, size_t errlen)
{
  spec->declared = true;
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    bool known = lua_type(L, -2) == LUA_TNUMBER ? lua_tointeger(L, -2) == 1
                                                : lua_type(L, -2) == LUA_TSTRING &&
                                                      (strcmp(lua_tostring(L, -2), "min") == 0 ||
                                                       strcmp(lua_tostring(L, -2), "max") == 0 ||
                                                       strcmp(lua_tostring(L, -2), "help") == 0 ||
                                                       strcmp(lua_tostring(L, -2), "circle") == 0 ||
                                                       strcmp(lua_tostring(L, -2), "integer") == 0);
    lua_pop(L, 1);
    if (!known) {
      snprintf(err, errlen, "%s: params.%s: a declaration holds the default first, then min, max, help, circle and integer", what,
               spec->name);
      lua_pop(L, 1);
      return false;
    }
  }
  lua_rawgeti(L, t, 1);
  char why[160];
  bool ok = take_default(L, spec, why, sizeof why);
  lua_pop(L, 1);
  if (!ok && why[0] != '\0') {
    snprintf(err, errlen, "%s: params.%s: the default: %s", what, spec->name, why);
    return false;
  }
  if (!ok) {
    snprintf(err, errlen, "%s: params.%s: the default (first item) must be a finite number, a boolean or a string", what,
             spec->name);
    return false;
  }
  for (int bound = 0; bound < 2; ++bound) {
    const char *key = bound ? "max" : "min";
    int type = lua_getfield(L, t, key);
    if (type == LUA_TNUMBER && spec->kind != FB_VALUE_BOOL && spec->kind != FB_VALUE_STRING) {
      *(bound ? &spec->max : &spec->min) = lua_tonumber(L, -1);
    } else if (type != LUA_TNIL) {
      lua_pop(L, 1);
      snprintf(err, errlen, "%s: params.%s.%s: a bound is a number, and only numbers have bounds", what, spec->name, key);
      return false;
    }
    lua_pop(L, 1);
  }
  int circle = lua_getfield(L, t, "circle");
  spec->circle = circle == LUA_TBOOLEAN && lua_toboolean(L, -1);
  lua_pop(L, 1);
  if ((circle != LUA_TNIL && circle != LUA_TBOOLEAN) || (spec->circle && spec->kind == FB_VALUE_STRING) ||
      (spec->circle && spec->kind == FB_VALUE_BOOL)) {
    snprintf(err, errlen, "%s: params.%s.circle: true for a distance the window draws round the agent, and only numbers are distances",
             what, spec->name);
    return false;
  }
  int integer = lua_getfield(L, t, "integer");
  spec->integer = integer == LUA_TBOOLEAN && lua_toboolean(L, -1);
  lua_pop(L, 1);
  if ((integer != LUA_TNIL && integer != LUA_TBOOLEAN) || (spec->integer && spec->kind != FB_VALUE_INTEGER)) {
    snprintf(err, errlen, "%s: params.%s.integer: true for a count, whose default is a whole number", what, spec->name);
    return false;
  }
  if (lua_getfield(L, t, "help") == LUA_TSTRING) {
    snprintf(spec->help, sizeof spec->help, "%s", lua_tostring(L, -1));
  } else if (!lua_isnil(L, -1)) {
    lua_pop(L, 1);
    snprintf(err, errlen, "%s: params.%s.help: expected a string", what, spec->name);
    return false;
  }
  lua_pop(L, 1);
  char msg[160];
  if (!(spec->min <= spec->max) || !fbParams_CheckNumber(spec, spec->number, msg, sizeof msg)) {
    snprintf(err, errlen, "%s: params.%s: the default %g lies outside min %g .. max %g", what, spec->name, spec->number,
             spec->min, spec->max);
    return false;
  }
  return true;
}

bool fbParams_Read(lua_State *L, int module, fbParamSpecs *specs, const char *what, char *err, size_t errlen)
{
  module = lua_absindex(L, module);
  memset(specs, 0, sizeof *specs);
  lua_newtable(L);
  int defaults = lua_gettop(L);
  int type = lua_getfield(L, module, "params");
  if (type == LUA_TNIL) {
    lua_pop(L, 1);
    return true;
  }
  if (type != LUA_TTABLE) {
    snprintf(err, errlen, "%s: params: expected a table, got a %s", what, lua_typename(L, type));
    lua_pop(L, 2);
    return false;
  }
  int params = lua_gettop(L);
  bool ok = true;
  char why[160];
  lua_pushnil(L);
  while (ok && lua_next(L, params) != 0) {
    if (lua_type(L, -2) != LUA_TSTRING || lua_rawlen(L, -2) >= FB_NAME_LEN || specs->count >= FB_MAX_PARAM_SPECS) {
      snprintf(err, errlen, "%s: params: keys must be names shorter than %d characters, at most %d of them", what,
               FB_NAME_LEN, FB_MAX_PARAM_SPECS);
      ok = false;
      lua_pop(L, 1);  // the value: the key stays, as after a failed declaration below
      break;
    }
    fbParamSpec *spec = &specs->item[specs->count++];
    snprintf(spec->name, sizeof spec->name, "%s", lua_tostring(L, -2));
    spec->min = -INFINITY;
    spec->max = INFINITY;
    if (lua_istable(L, -1)) {
      ok = read_declaration(L, lua_gettop(L), spec, what, err, errlen);
    } else if (!(ok = take_default(L, spec, why, sizeof why))) {
      snprintf(err, errlen, "%s: params.%s: %s", what, spec->name,
               why[0] != '\0' ? why : "a default is a finite number, a boolean or a string");
    }
    lua_pop(L, 1);
  }
  if (!ok) {
    lua_pop(L, 3);  // key, params, defaults
    return false;
  }
  lua_pop(L, 1);
  qsort(specs->item, (size_t)specs->count, sizeof specs->item[0], compare_specs);
  for (int k = 0; k < specs->count; ++k) {
    const fbParamSpec *spec = &specs->item[k];
    switch (spec->kind) {
    case FB_VALUE_INTEGER: lua_pushinteger(L, (lua_Integer)spec->number); break;
    case FB_VALUE_NUMBER: lua_pushnumber(L, spec->number); break;
    case FB_VALUE_BOOL: lua_pushboolean(L, spec->number != 0); break;
    case FB_VALUE_STRING: lua_pushstring(L, spec->text); break;
    }
    lua_setfield(L, defaults, spec->name);
  }
  return true;
}

const fbParamSpec *fbParams_Find(const fbParamSpecs *specs, const char *name)
{
  for (int k = 0; k < specs->count; ++k) {
    if (strcmp(specs->item[k].name, name) == 0) {
      return &specs->item[k];
    }
  }
  return NULL;
}

void fbParams_Names(const fbParamSpecs *specs, char *out, size_t len)
{
  size_t used = 0;
  out[0] = '\0';
  for (int k = 0; k < specs->count && used < len; ++k) {
    used += (size_t)snprintf(out + used, len - used, "%s%s", k ? ", " : "", specs->item[k].name);
  }
  if (specs->count == 0) {
    snprintf(out, len, "(none)");
  }
}

bool fbParams_CheckNumber(const fbParamSpec *spec, double value, char *msg, size_t len)
{
  if (!isfinite(value)) {
    snprintf(msg, len, "must be a finite number (got %g)", value);
    return false;
  }
  if (spec->integer && (value != floor(value) || fabs(value) >= 9007199254740992.0)) {  // 2^53: exact as a double
    snprintf(msg, len, "must be a whole number (got %g)", value);
    return false;
  }
  if (value < spec->min || value > spec->max) {
    if (isinf(spec->max)) {
      snprintf(msg, len, "must be at least %g (got %g)", spec->min, value);
    } else if (isinf(spec->min)) {
      snprintf(msg, len, "must be at most %g (got %g)", spec->max, value);
    } else {
      snprintf(msg, len, "must be between %g and %g (got %g)", spec->min, spec->max, value);
    }
    return false;
  }
  return true;
}

const char *fbParams_KindName(fbValueKind kind)
{
  return kind == FB_VALUE_BOOL ? "boolean" : kind == FB_VALUE_STRING ? "string" : "number";
}

// Text as it appears in a message: at most 40 bytes of it, the rest as "...".
static void quoted(const char *text, char *out, size_t len)
{
  size_t n = strlen(text);
  snprintf(out, len, "'%.40s%s'", text, n > 40 ? "..." : "");
}

bool fbParams_Parse(const fbParamSpec *spec, const char *text, fbParamDef *p, char *msg, size_t len)
{
  fbParamDef v;
  memset(&v, 0, sizeof v);
  snprintf(v.name, sizeof v.name, "%s", spec->name);
  v.kind = spec->kind;
  char q[64];
  quoted(text, q, sizeof q);
  size_t n = strlen(text);
  if (spec->kind == FB_VALUE_STRING) {
    if (!fbName_CheckParamText(text, n, msg, len)) {
      return false;
    }
    memcpy(v.text, text, n + 1);
  } else if (spec->kind == FB_VALUE_BOOL) {
    if (strcmp(text, "true") != 0 && strcmp(text, "false") != 0) {
      snprintf(msg, len, "expected true or false (got %s)", q);
      return false;
    }
    v.number = text[0] == 't';
  } else {
    char *end = NULL;
    v.number = n < 64 ? strtod(text, &end) : 0;
    if (n >= 64 || n == 0 || end == text || *end != '\0') {
      snprintf(msg, len, "expected a number (got %s)", q);
      return false;
    }
    if (!fbParams_CheckNumber(spec, v.number, msg, len)) {
      return false;
    }
    v.kind = spec->kind;  // an integer's value goes in as a Lua integer while it is whole (ruleset.c)
  }
  *p = v;
  return true;
}
