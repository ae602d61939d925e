// rule_module.c — a rule module in a runner's Lua state: loading and reloading it, its species table and its parameters.
#include "rule_module.h"

#include <lauxlib.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "closest_name.h"
#include "names.h"
#include "schema.h"

// ---- the steering library ----------------------------------------------------------------------

static bool load_library(lua_State *L, void *ud, char *err, size_t errlen)
{
  const char *path = ud;
  if (!fbLuaHost_RunFile(fbLuaHost_Of(L), path, err, errlen)) {
    return false;
  }
  if (!lua_istable(L, -1)) {
    snprintf(err, errlen, "%s: must return a table (the library's functions)", path);
    return false;
  }
  lua_setglobal(L, "steering");  // every module environment made from now on gets a copy
  return true;
}

bool fbRuleModule_LoadLibrary(fbRuleRunner *r, const char *path, char *err, size_t errlen)
{
  return fbLuaHost_Protect(&r->host, path, load_library, (void *)path, err, errlen);
}

// ---- loading ------------------------------------------------------------------------------------

// Writes the scenario's parameter overrides into the defaults table at -1, refusing names the
// module does not declare (the message lists those it does), values of another type than the
// default's, and numbers outside the declared range.
static bool merge_overrides(lua_State *L, const fbRuleDef *def, const fbParamSpecs *specs, const char *what, char *err,
                            size_t errlen)
{
  for (int k = 0; k < def->param_count; ++k) {
    const fbParamDef *p = &def->params[k];
    const fbParamSpec *spec = fbParams_Find(specs, p->name);
    char msg[256];
    if (spec == NULL) {
      char names[512];
      fbParams_Names(specs, names, sizeof names);
      fbClosestName closest;
      fbClosestName_Begin(&closest, p->name);
      for (int i = 0; i < specs->count; ++i) {
        fbClosestName_Offer(&closest, specs->item[i].name);
      }
      for (int i = 0; i < fbRuleSchema.count; ++i) {  // --set boid.cohesion.wieght: the slot's weight
        if (fbRuleSchema.fields[i].kind != FB_FIELD_TABLE) {
          fbClosestName_Offer(&closest, fbRuleSchema.fields[i].name);
        }
      }
      const char *best = fbClosestName_Suggestion(&closest);
      snprintf(err, errlen, "%s: params.%s: unknown parameter (this rule has: %s)%s%s%s", what, p->name, names,
               best[0] ? "; did you mean '" : "", best, best[0] ? "'?" : "");
      return false;
    }
    fbParamDef as_text;
    if (spec->kind == FB_VALUE_STRING && p->kind != FB_VALUE_STRING && p->text[0] != '\0') {
      // --set goal=3 (or =true) for a string parameter: the text as written is the string.
      as_text = *p;
      as_text.kind = FB_VALUE_STRING;
      p = &as_text;
    }
    bool number = spec->kind == FB_VALUE_NUMBER || spec->kind == FB_VALUE_INTEGER;
    bool given_number = p->kind == FB_VALUE_NUMBER || p->kind == FB_VALUE_INTEGER;
    if (number != given_number || (!number && spec->kind != p->kind)) {
      snprintf(err, errlen, "%s: params.%s: expected a %s, got a %s", what, p->name, fbParams_KindName(spec->kind),
               fbParams_KindName(p->kind));
      return false;
    }
    if (number && !fbParams_CheckNumber(spec, p->number, msg, sizeof msg)) {
      snprintf(err, errlen, "%s: params.%s: %s", what, p->name, msg);
      return false;
    }
    if (p->kind == FB_VALUE_STRING && !fbName_CheckParamText(p->text, strnlen(p->text, sizeof p->text), msg, sizeof msg)) {
      snprintf(err, errlen, "%s: params.%s: %s", what, p->name, msg);
      return false;
    }
    switch (spec->integer ? FB_VALUE_INTEGER : p->kind) {  // a count stays a Lua integer, 3.0 included
    case FB_VALUE_INTEGER: lua_pushinteger(L, (lua_Integer)p->number); break;
    case FB_VALUE_NUMBER: lua_pushnumber(L, p->number); break;
    case FB_VALUE_BOOL: lua_pushboolean(L, p->number != 0); break;
    case FB_VALUE_STRING: lua_pushstring(L, p->text); break;
    }
    lua_setfield(L, -2, p->name);
  }
  return true;
}

typedef struct FieldDecl {
  char name[FB_NAME_LEN];
  double initial;
} FieldDecl;

static int by_field_name(const void *a, const void *b)
{
  return strcmp(((const FieldDecl *)a)->name, ((const FieldDecl *)b)->name);
}

// Declares the module's `fields = { name = initial }` (module at -1) in the world, in name order:
// a table's traversal order changes from run to run (Lua seeds its string hashes), and the order
// fields are declared in must not.
static bool declare_fields(lua_State *L, fbWorld *w, int species, const char *what, char *err, size_t errlen)
{
  if (lua_getfield(L, -1, "fields") != LUA_TTABLE) {
    bool ok = lua_isnil(L, -1);
    if (!ok) {
      snprintf(err, errlen, "%s: fields: expected a table of name = initial value", what);
    }
    lua_pop(L, 1);
    return ok;
  }
  FieldDecl decl[FB_MAX_FIELDS];
  int count = 0;
  lua_pushnil(L);
  while (lua_next(L, -2) != 0) {
    const char *name = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
    if (name == NULL || !fbName_IsIdentifier(name) || strlen(name) >= FB_NAME_LEN || lua_type(L, -1) != LUA_TNUMBER) {
      snprintf(err, errlen, "%s: fields: expected name = number pairs, names being Lua identifiers (a.%s)", what,
               name ? name : "?");
      lua_pop(L, 3);
      return false;
    }
    if (count == FB_MAX_FIELDS) {
      snprintf(err, errlen, "%s: fields.%s: too many per-agent fields (at most %d)", what, name, FB_MAX_FIELDS);
      lua_pop(L, 3);
      return false;
    }
    snprintf(decl[count].name, sizeof decl[count].name, "%s", name);
    decl[count++].initial = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  qsort(decl, (size_t)count, sizeof decl[0], by_field_name);
  for (int f = 0; f < count; ++f) {
    int index = fbWorld_DeclareField(w, decl[f].name, decl[f].initial);
    if (index < 0) {
      snprintf(err, errlen, "%s: fields.%s: too many per-agent fields (at most %d)", what, decl[f].name, FB_MAX_FIELDS);
      return false;
    }
    w->species[species].field_mask |= 1u << index;  // the inspector shows an agent the fields of its own rules
  }
  return true;
}

// Calls the validate function at `validate` (nil: there is none) with the params at `params` and the
// species table on top of the stack (popped): it returns nil, or a parameter name and a message,
// which go into err as "name: message".
static fbValidateVerdict validate_verdict(fbRuleRunner *r, int validate, int params, char *err, size_t errlen)
{
  lua_State *L = r->host.L;
  if (!lua_isfunction(L, validate)) {
    lua_pop(L, 1);
    return FB_VALIDATE_ACCEPTS;
  }
  int species = lua_gettop(L);
  lua_pushvalue(L, validate);
  lua_pushvalue(L, params);
  lua_pushvalue(L, species);
  char msg[1024];
  if (!fbLuaHost_Call(&r->host, 2, 2, msg, sizeof msg)) {
    snprintf(err, errlen, "validate failed: %s", msg);
    lua_pop(L, 1);
    return FB_VALIDATE_FAILED;
  }
  bool ok = lua_isnil(L, -2);
  if (!ok) {
    snprintf(err, errlen, "%s: %s", lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?",
             lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "out of range");
  }
  lua_pop(L, 3);
  return ok ? FB_VALIDATE_ACCEPTS : FB_VALIDATE_REFUSES;
}

// Calls module.validate(params, species) if present (module at `module`, params at `params`).
static bool validate_params(fbRuleRunner *r, int species, int rule, int module, int params, const char *what,
                            char *err, size_t errlen)
{
  lua_State *L = r->host.L;
  int type = lua_getfield(L, module, "validate");
  if (type != LUA_TFUNCTION && type != LUA_TNIL) {
    snprintf(err, errlen, "%s: validate: expected a function, got a %s", what, luaL_typename(L, -1));
    lua_pop(L, 1);
    return false;
  }
  int validate = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->state[species][rule].species);
  char msg[1024];
  fbValidateVerdict verdict = validate_verdict(r, validate, params, msg, sizeof msg);
  bool ok = verdict == FB_VALIDATE_ACCEPTS;
  if (!ok) {  // a refusal names a parameter; a failure is validate's own error
    snprintf(err, errlen, "%s: %s%s", what, verdict == FB_VALIDATE_REFUSES ? "params." : "", msg);
  }
  lua_pop(L, 1);
  return ok;
}

// Replaces a registry ref with the value on top of the stack (popped).
static void replace_ref(lua_State *L, int *ref)
{
  luaL_unref(L, LUA_REGISTRYINDEX, *ref);
  *ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

/*
 * Nothing is committed until the module has loaded, its params merged and validated: a reload that
 * fails at any point leaves the last good version running.
 */
typedef struct LoadJob {
  fbRuleRunner *r;
  fbWorld *w;
  int species, rule;
  const fbRuleSource *src;
  const fbRuleDef *def;
  const char *what;
  bool keep_previous;
  fbParamSpecs *specs_out;
} LoadJob;

static bool load_protected(lua_State *L, void *ud, char *err, size_t errlen)
{
  const LoadJob *job = ud;
  fbRuleRunner *r = job->r;
  fbWorld *w = job->w;
  int species = job->species, rule = job->rule;
  const fbRuleSource *src = job->src;
  const fbRuleDef *def = job->def;
  const char *what = job->what;
  bool keep_previous = job->keep_previous;
  fbParamSpecs *specs_out = job->specs_out;
  int top = lua_gettop(L);
  r->ctx.world = w;
  r->ctx.species = species;
  r->ctx.rule = rule;
  const char *path = src->path;
  if (!fbLuaHost_RunSource(&r->host, src->text, src->len, path, err, errlen)) {
    return false;
  }
  int module = lua_gettop(L);
  fbParamSpecs *specs = specs_out != NULL ? specs_out : &r->load_specs;
  bool ok = false;
  if (!lua_istable(L, module)) {
    snprintf(err, errlen, "%s: must return a table with a steer function", path);
  } else if (lua_getfield(L, module, "steer") != LUA_TFUNCTION) {
    snprintf(err, errlen, "%s: steer: expected a function, got %s", path, luaL_typename(L, -1));
  } else if (fbParams_Read(L, module, specs, what, err, errlen)) {
    int steer = module + 1, params = lua_gettop(L);
    ok = merge_overrides(L, def, specs, what, err, errlen) &&
         validate_params(r, species, rule, module, params, what, err, errlen);
    lua_pushvalue(L, module);
    ok = ok && declare_fields(L, w, species, what, err, errlen);
    if (ok && keep_previous) {
      fbRuleModule_Settle(r, species, rule);
      r->state[species][rule].previous = r->state[species][rule].now;
      r->state[species][rule].now = FB_NO_RULE_VERSION;
    }
    if (ok) {
      lua_getfield(L, module, "validate");
      replace_ref(L, &r->state[species][rule].now.validate);
      fbLua_FunctionWhere(L, steer, r->state[species][rule].now.where, sizeof r->state[species][rule].now.where);
      lua_pushvalue(L, params);
      replace_ref(L, &r->state[species][rule].now.params);
      lua_pushvalue(L, steer);
      replace_ref(L, &r->state[species][rule].now.steer);
    }
  }
  lua_settop(L, top);
  return ok;
}

// Loading runs the module and reads what it returned (its table, params, fields, validate): one
// protected call, so a metamethod among them that errors or loops is the module's error.
static bool load_rule(fbRuleRunner *r, fbWorld *w, int species, int rule, const fbRuleSource *src,
                      const fbRuleDef *def, const char *what, bool keep_previous, fbParamSpecs *specs_out, char *err,
                      size_t errlen)
{
  LoadJob job = {r, w, species, rule, src, def, what, keep_previous, specs_out};
  char about[1100];  // a stop inside a __close or a C function has no line: the message names the file
  snprintf(about, sizeof about, "%s (%s)", what, src->path);
  return fbLuaHost_Protect(&r->host, about, load_protected, &job, err, errlen);
}

bool fbRuleModule_Load(fbRuleRunner *r, fbWorld *w, int species, int rule, const fbRuleSource *src,
                       const fbRuleDef *def, const char *what, fbParamSpecs *specs, char *err, size_t errlen)
{
  return load_rule(r, w, species, rule, src, def, what, false, specs, err, errlen);
}

bool fbRuleModule_Reload(fbRuleRunner *r, fbWorld *w, int species, int rule, const fbRuleSource *src,
                         const fbRuleDef *def, const char *what, char *err, size_t errlen)
{
  return load_rule(r, w, species, rule, src, def, what, true, NULL, err, errlen);
}

// Lets go of a version's registry refs.
static void drop_version(lua_State *L, fbRuleVersion *v)
{
  luaL_unref(L, LUA_REGISTRYINDEX, v->steer);
  luaL_unref(L, LUA_REGISTRYINDEX, v->params);
  luaL_unref(L, LUA_REGISTRYINDEX, v->validate);
  *v = FB_NO_RULE_VERSION;
}

bool fbRuleModule_Fallback(fbRuleRunner *r, int species, int rule)
{
  fbRuleState *st = &r->state[species][rule];
  if (st->previous.steer == LUA_NOREF) {
    return false;
  }
  drop_version(r->host.L, &st->now);
  st->now = st->previous;
  st->previous = FB_NO_RULE_VERSION;
  return true;
}

void fbRuleModule_Settle(fbRuleRunner *r, int species, int rule)
{
  drop_version(r->host.L, &r->state[species][rule].previous);
}

// The species table `s` a rule gets: its own values. (The world's dt, width, height and wraps
// follow, older spellings kept working; they now live in fb.world.)
const fbApiField fbRuleModule_SpeciesFields[] = {
    {"name", "string", "the species' name", FB_COMPUTED},
    {"max_speed", "number", "units/s", offsetof(fbSpecies, limits.max_speed)},
    {"min_speed", "number", "units/s", offsetof(fbSpecies, limits.min_speed)},
    {"max_accel", "number", "units/s^2", offsetof(fbSpecies, limits.max_accel)},
    {"cruise_speed", "number", "units/s", offsetof(fbSpecies, cruise_speed)},
    {"body_length", "number", "world units (the body's radius is half of it)", offsetof(fbSpecies, body_length)},
    {"radius", "number", "vision radius, world units", offsetof(fbSpecies, vision.radius)},
    {"fov", "number", "field of view, degrees (0..360)", offsetof(fbSpecies, vision.def.fov)},
    {"separation", "number", "separation radius, world units", offsetof(fbSpecies, vision.separation_radius)},
    {NULL, NULL, NULL, 0}};

static void push_species(lua_State *L, const fbWorld *w, const fbSpecies *s)
{
  lua_createtable(L, 0, 16);
  for (const fbApiField *f = fbRuleModule_SpeciesFields; f->name != NULL; ++f) {
    if (f->offset == FB_COMPUTED) {
      lua_pushstring(L, s->name);  // name, the one field not a number
    } else {
      lua_pushnumber(L, *(const double *)((const char *)s + f->offset));
    }
    lua_setfield(L, -2, f->name);
  }
  const struct {
    const char *key;
    double value;
  } older[] = {{"dt", w->dt}, {"width", w->width}, {"height", w->height}};
  for (size_t i = 0; i < sizeof older / sizeof older[0]; ++i) {
    lua_pushnumber(L, older[i].value);
    lua_setfield(L, -2, older[i].key);
  }
  lua_pushboolean(L, w->bounds == FB_BOUNDS_WRAP);
  lua_setfield(L, -2, "wraps");
}

typedef struct SpeciesJob {
  fbRuleRunner *r;
  const fbWorld *w;
  int species;
} SpeciesJob;

static bool set_species(lua_State *L, void *ud, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  SpeciesJob *job = ud;
  for (int k = 0; k < job->w->species[job->species].rule_count; ++k) {
    push_species(L, job->w, &job->w->species[job->species]);
    replace_ref(L, &job->r->state[job->species][k].species);
  }
  return true;
}

bool fbRuleModule_SetSpecies(fbRuleRunner *r, const fbWorld *w, int species, char *err, size_t errlen)
{
  SpeciesJob job = {r, w, species};
  return fbLuaHost_Protect(&r->host, w->species[species].name, set_species, &job, err, errlen);
}

// A Lua integer for an integer parameter, a float for a number: a rule that formats it with %d or
// counts with it sees the type its module wrote. Booleans and strings as themselves.
static void push_param(lua_State *L, const fbParamDef *p)
{
  switch (p->kind) {
  case FB_VALUE_INTEGER: lua_pushinteger(L, (lua_Integer)p->number); break;
  case FB_VALUE_NUMBER: lua_pushnumber(L, p->number); break;
  case FB_VALUE_BOOL: lua_pushboolean(L, p->number != 0); break;
  case FB_VALUE_STRING: lua_pushstring(L, p->text); break;
  }
}

// The Lua type a parameter of this kind has.
static int lua_type_of(fbValueKind kind)
{
  return kind == FB_VALUE_BOOL ? LUA_TBOOLEAN : kind == FB_VALUE_STRING ? LUA_TSTRING : LUA_TNUMBER;
}

typedef struct ParamJob {
  fbRuleRunner *r;
  const fbWorld *w;
  int species, rule;
  const fbSpecies *sp;
  const fbParamDef *value;     // SetParam, Check (NULL: the parameters as they are)
  fbParamDef *values;          // ListValues
  int max, count;
  FILE *out;                   // WriteParams
  fbValidateVerdict verdict;   // Check: what validate answered (failed, until it answers)
} ParamJob;

// The rule's params table is the one its steer function gets: the rule may have set a metatable
// on it, so it is read like any other script value, inside a protected call. A parameter keeps its
// type: the caller checked the value against the declaration.
static bool set_param(lua_State *L, void *ud, char *err, size_t errlen)
{
  ParamJob *job = ud;
  const fbParamDef *p = job->value;
  lua_rawgeti(L, LUA_REGISTRYINDEX, job->r->state[job->species][job->rule].now.params);
  if (!lua_istable(L, -1) || lua_getfield(L, -1, p->name) != lua_type_of(p->kind)) {
    snprintf(err, errlen, "%s: no %s parameter of that name", p->name, fbParams_KindName(p->kind));
    return false;
  }
  lua_pop(L, 1);
  push_param(L, p);
  lua_setfield(L, -2, p->name);
  return true;
}

bool fbRuleModule_SetParam(fbRuleRunner *r, int species, int rule, const fbParamDef *p)
{
  ParamJob job = {.r = r, .species = species, .rule = rule, .value = p};
  char err[512];
  return fbLuaHost_Protect(&r->host, p->name, set_param, &job, err, sizeof err);
}

/*
 * validate sees what the rule would run with: a shallow copy of its params with the one value
 * changed (the rule's own table is left alone until the answer is yes), and the species table it
 * would get.
 */
static bool check_protected(lua_State *L, void *ud, char *msg, size_t len)
{
  ParamJob *job = ud;
  fbRuleRunner *r = job->r;
  int top = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->state[job->species][job->rule].now.validate);
  if (!lua_isfunction(L, -1)) {
    lua_settop(L, top);
    return true;
  }
  int validate = lua_gettop(L);
  lua_newtable(L);
  int params = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->state[job->species][job->rule].now.params);
  if (lua_istable(L, -1)) {
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, params);
    }
  }
  lua_pop(L, 1);
  if (job->value != NULL) {
    push_param(L, job->value);
    lua_setfield(L, params, job->value->name);
  }
  if (job->sp != NULL) {
    push_species(L, job->w, job->sp);
  } else {
    lua_rawgeti(L, LUA_REGISTRYINDEX, r->state[job->species][job->rule].species);
  }
  job->verdict = validate_verdict(r, validate, params, msg, len);
  lua_settop(L, top);
  return job->verdict == FB_VALIDATE_ACCEPTS;
}

fbValidateVerdict fbRuleModule_Check(fbRuleRunner *r, const fbWorld *w, int species, int rule, const fbSpecies *sp,
                                     const fbParamDef *p, char *msg, size_t len)
{
  // A Lua error before validate answers (its copy of the params, its species table) is a failure.
  ParamJob job = {.r = r, .w = w, .species = species, .rule = rule, .sp = sp, .value = p,
                  .verdict = FB_VALIDATE_FAILED};
  if (fbLuaHost_Protect(&r->host, "validate", check_protected, &job, msg, len)) {
    return FB_VALIDATE_ACCEPTS;
  }
  return job.verdict == FB_VALIDATE_REFUSES ? FB_VALIDATE_REFUSES : FB_VALIDATE_FAILED;
}

static int compare_values(const void *a, const void *b)
{
  return strcmp(((const fbParamDef *)a)->name, ((const fbParamDef *)b)->name);
}

// The value at the top of the stack into p; false if it is not a number, boolean or short string.
static bool take_value(lua_State *L, fbParamDef *p)
{
  switch (lua_type(L, -1)) {
  case LUA_TNUMBER:
    p->kind = lua_isinteger(L, -1) ? FB_VALUE_INTEGER : FB_VALUE_NUMBER;
    p->number = lua_tonumber(L, -1);
    return true;
  case LUA_TBOOLEAN:
    p->kind = FB_VALUE_BOOL;
    p->number = lua_toboolean(L, -1);
    return true;
  case LUA_TSTRING:
    p->kind = FB_VALUE_STRING;
    snprintf(p->text, sizeof p->text, "%s", lua_tostring(L, -1));
    return lua_rawlen(L, -1) < FB_PARAM_TEXT;
  default: return false;
  }
}

static bool list_values(lua_State *L, void *ud, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  ParamJob *job = ud;
  lua_rawgeti(L, LUA_REGISTRYINDEX, job->r->state[job->species][job->rule].now.params);
  int n = 0;
  if (lua_istable(L, -1)) {
    lua_pushnil(L);
    while (n < job->max && lua_next(L, -2) != 0) {
      fbParamDef *p = &job->values[n];
      memset(p, 0, sizeof *p);
      if (lua_type(L, -2) == LUA_TSTRING && lua_rawlen(L, -2) < FB_NAME_LEN && take_value(L, p)) {
        snprintf(p->name, FB_NAME_LEN, "%s", lua_tostring(L, -2));
        n++;
      }
      lua_pop(L, 1);
    }
  }
  // Table order is not stable across runs: sort by name.
  qsort(job->values, (size_t)n, sizeof *job->values, compare_values);
  job->count = n;
  return true;
}

int fbRuleModule_ListValues(const fbRuleRunner *r, int species, int rule, fbParamDef *values, int max)
{
  ParamJob job = {.r = (fbRuleRunner *)r, .species = species, .rule = rule, .values = values, .max = max};
  char err[512];
  return fbLuaHost_Protect((fbLuaHost *)&r->host, "params", list_values, &job, err, sizeof err) ? job.count : 0;
}

int fbRuleModule_ListParams(const fbRuleRunner *r, int species, int rule, char names[][FB_NAME_LEN], double *values, int max)
{
  fbParamDef all[2 * FB_MAX_PARAM_SPECS];
  int n = fbRuleModule_ListValues(r, species, rule, all, 2 * FB_MAX_PARAM_SPECS), count = 0;
  for (int q = 0; q < n && count < max; ++q) {
    if (all[q].kind == FB_VALUE_NUMBER || all[q].kind == FB_VALUE_INTEGER) {
      memcpy(names[count], all[q].name, FB_NAME_LEN);
      values[count++] = all[q].number;
    }
  }
  return count;
}

static bool write_params(lua_State *L, void *ud, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  ParamJob *job = ud;
  lua_rawgeti(L, LUA_REGISTRYINDEX, job->r->state[job->species][job->rule].now.params);
  fbLua_Write(L, -1, job->out);
  return true;
}

void fbRuleModule_WriteParams(const fbRuleRunner *r, int species, int rule, FILE *out)
{
  ParamJob job = {.r = (fbRuleRunner *)r, .species = species, .rule = rule, .out = out};
  char err[512];
  fbLuaHost_Protect((fbLuaHost *)&r->host, "params", write_params, &job, err, sizeof err);
}

