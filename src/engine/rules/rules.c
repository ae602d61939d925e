// rules.c — one Lua state's rule modules: loading them with their parameters, and the protected loop over a range of agents.
#include "rules.h"

#include <math.h>
#include <lauxlib.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "sandbox.h"

// A slot with no version loaded: every ref LUA_NOREF, which luaL_unref ignores.
#define NO_VERSION ((fbRuleVersion){LUA_NOREF, LUA_NOREF, LUA_NOREF, ""})

// math.random keeps one sequence per state, so its numbers would depend on which thread ran which
// agent: rules get a:random(stream), the same on any thread count.
const char *const fbRules_RefusedMath[] = {"random", "randomseed", NULL};

static int l_no_random(lua_State *L)
{
  return luaL_error(L, "%s is not available to rules: use a:random(stream), which gives the same numbers on any "
                       "thread count",
                    lua_tostring(L, lua_upvalueindex(1)));
}

bool fbRules_Open(fbRuleRunner *r, size_t memory_limit, int timeout_ms, const fbWorld *w, const char *search)
{
  memset(r, 0, sizeof *r);
  r->inspect = -1;
  r->ctx.seen_agent = -1;
  if (!fbLuaHost_Create(&r->host, memory_limit, timeout_ms)) {
    return false;
  }
  r->host.context = &r->ctx;
  snprintf(r->host.require_path, sizeof r->host.require_path, "%s", search);
  lua_State *L = r->host.L;
  lua_getglobal(L, "math");
  for (int k = 0; fbRules_RefusedMath[k] != NULL; ++k) {
    lua_pushfstring(L, "math.%s", fbRules_RefusedMath[k]);
    lua_pushcclosure(L, l_no_random, 1);
    lua_setfield(L, -2, fbRules_RefusedMath[k]);
  }
  lua_pop(L, 1);
  fbRuleApi_OpenFb(L, w);
  fbAgentViews_Init(&r->views, L);
  for (int s = 0; s < FB_MAX_SPECIES; ++s) {
    for (int k = 0; k < FB_MAX_RULES; ++k) {
      r->state[s][k] = (fbRuleState){NO_VERSION, NO_VERSION, LUA_NOREF};
    }
  }
  return true;
}

void fbRules_Close(fbRuleRunner *r)
{
  fbLuaHost_Destroy(&r->host);
  fbNeighbourList_Free(&r->ctx.seen);
}

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

bool fbRules_LoadLibrary(fbRuleRunner *r, const char *path, char *err, size_t errlen)
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
      snprintf(err, errlen, "%s: params.%s: unknown parameter (this rule has: %s)", what, p->name, names);
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
typedef enum Verdict { VALIDATE_ACCEPTS, VALIDATE_REFUSES, VALIDATE_FAILED } Verdict;

static Verdict validate_verdict(fbRuleRunner *r, int validate, int params, char *err, size_t errlen)
{
  lua_State *L = r->host.L;
  if (!lua_isfunction(L, validate)) {
    lua_pop(L, 1);
    return VALIDATE_ACCEPTS;
  }
  int species = lua_gettop(L);
  lua_pushvalue(L, validate);
  lua_pushvalue(L, params);
  lua_pushvalue(L, species);
  char msg[1024];
  if (!fbLuaHost_Call(&r->host, 2, 2, msg, sizeof msg)) {
    snprintf(err, errlen, "validate failed: %s", msg);
    lua_pop(L, 1);
    return VALIDATE_FAILED;
  }
  bool ok = lua_isnil(L, -2);
  if (!ok) {
    snprintf(err, errlen, "%s: %s", lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?",
             lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "out of range");
  }
  lua_pop(L, 3);
  return ok ? VALIDATE_ACCEPTS : VALIDATE_REFUSES;
}

static bool call_validate(fbRuleRunner *r, int validate, int params, char *err, size_t errlen)
{
  return validate_verdict(r, validate, params, err, errlen) == VALIDATE_ACCEPTS;
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
  Verdict verdict = validate_verdict(r, validate, params, msg, sizeof msg);
  bool ok = verdict == VALIDATE_ACCEPTS;
  if (!ok) {  // a refusal names a parameter; a failure is validate's own error
    snprintf(err, errlen, "%s: %s%s", what, verdict == VALIDATE_REFUSES ? "params." : "", msg);
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
      fbRules_Settle(r, species, rule);
      r->state[species][rule].previous = r->state[species][rule].now;
      r->state[species][rule].now = NO_VERSION;
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

bool fbRules_Load(fbRuleRunner *r, fbWorld *w, int species, int rule, const fbRuleSource *src, const fbRuleDef *def,
                  const char *what, fbParamSpecs *specs, char *err, size_t errlen)
{
  return load_rule(r, w, species, rule, src, def, what, false, specs, err, errlen);
}

bool fbRules_Reload(fbRuleRunner *r, fbWorld *w, int species, int rule, const fbRuleSource *src,
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
  *v = NO_VERSION;
}

bool fbRules_Fallback(fbRuleRunner *r, int species, int rule)
{
  fbRuleState *st = &r->state[species][rule];
  if (st->previous.steer == LUA_NOREF) {
    return false;
  }
  drop_version(r->host.L, &st->now);
  st->now = st->previous;
  st->previous = NO_VERSION;
  return true;
}

void fbRules_Settle(fbRuleRunner *r, int species, int rule)
{
  drop_version(r->host.L, &r->state[species][rule].previous);
}

// The species table `s` a rule gets: its own values. (The world's dt, width, height and wraps
// follow, older spellings kept working; they now live in fb.world.)
const fbApiField fbRules_SpeciesFields[] = {
    {"name", "string", "the species' name", FB_COMPUTED},
    {"max_speed", "number", "units/s", offsetof(fbSpecies, limits.max_speed)},
    {"min_speed", "number", "units/s", offsetof(fbSpecies, limits.min_speed)},
    {"max_accel", "number", "units/s^2", offsetof(fbSpecies, limits.max_accel)},
    {"cruise_speed", "number", "units/s", offsetof(fbSpecies, cruise_speed)},
    {"body_length", "number", "world units (the body's radius is half of it)", offsetof(fbSpecies, body_length)},
    {"radius", "number", "vision radius, world units", offsetof(fbSpecies, vision.radius)},
    {"fov", "number", "field of view, degrees (0..360)", offsetof(fbSpecies, fov_degrees)},
    {"separation", "number", "separation radius, world units", offsetof(fbSpecies, vision.separation_radius)},
    {NULL, NULL, NULL, 0}};

static void push_species(lua_State *L, const fbWorld *w, const fbSpecies *s)
{
  lua_createtable(L, 0, 16);
  for (const fbApiField *f = fbRules_SpeciesFields; f->name != NULL; ++f) {
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

bool fbRules_SetSpecies(fbRuleRunner *r, const fbWorld *w, int species, char *err, size_t errlen)
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

bool fbRules_SetParam(fbRuleRunner *r, int species, int rule, const fbParamDef *p)
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
  bool ok = call_validate(r, validate, params, msg, len);
  lua_settop(L, top);
  return ok;
}

bool fbRules_Check(fbRuleRunner *r, const fbWorld *w, int species, int rule, const fbSpecies *sp, const fbParamDef *p,
                   char *msg, size_t len)
{
  ParamJob job = {.r = r, .w = w, .species = species, .rule = rule, .sp = sp, .value = p};
  return fbLuaHost_Protect(&r->host, "validate", check_protected, &job, msg, len);
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

int fbRules_ListValues(const fbRuleRunner *r, int species, int rule, fbParamDef *values, int max)
{
  ParamJob job = {.r = (fbRuleRunner *)r, .species = species, .rule = rule, .values = values, .max = max};
  char err[512];
  return fbLuaHost_Protect((fbLuaHost *)&r->host, "params", list_values, &job, err, sizeof err) ? job.count : 0;
}

int fbRules_ListParams(const fbRuleRunner *r, int species, int rule, char names[][FB_NAME_LEN], double *values, int max)
{
  fbParamDef all[2 * FB_MAX_PARAM_SPECS];
  int n = fbRules_ListValues(r, species, rule, all, 2 * FB_MAX_PARAM_SPECS), count = 0;
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

void fbRules_WriteParams(const fbRuleRunner *r, int species, int rule, FILE *out)
{
  ParamJob job = {.r = (fbRuleRunner *)r, .species = species, .rule = rule, .out = out};
  char err[512];
  fbLuaHost_Protect((fbLuaHost *)&r->host, "params", write_params, &job, err, sizeof err);
}

// ---- running ------------------------------------------------------------------------------------

/*
 * A range runs with everything its rules are called with on the Lua stack, so that a call costs
 * no registry lookup: per species, from slot[s], its fill function (agent_view.h) and then for
 * each rule its steer function, view, params and species table.
 */
#define SLOTS_PER_RULE 4

typedef struct RangeJob {
  fbRuleRunner *r;
  int next, end;
  int command_mark;  // queue length when the current agent started: a retried agent drops its commands
  int slot[FB_MAX_SPECIES];
  bool takes_species[FB_MAX_SPECIES][FB_MAX_RULES];  // steer(a, p, s) rather than steer(a, p)
  fbViewPlan plan[FB_MAX_SPECIES];
} RangeJob;

// Room above the slots for the largest fill call (the filler and one value per key): Lua only
// promises LUA_MINSTACK free slots, and a view can have more keys than that.
static void reserve_fill(lua_State *L, const RangeJob *job)
{
  int most = 0;
  for (int s = 0; s < job->r->ctx.world->species_count; ++s) {
    most = job->plan[s].count > most ? job->plan[s].count : most;
  }
  luaL_checkstack(L, most + 2, "agent view");
}

// Whether the steering function on top of the stack declares a third argument (or takes any
// number): `function(a, p)` is called without the species table, one copy less per agent. A
// native rule's slot holds nil, never called from here.
static bool takes_species(lua_State *L)
{
  if (!lua_isfunction(L, -1)) {
    return true;
  }
  lua_Debug ar;
  lua_pushvalue(L, -1);
  return !lua_getinfo(L, ">u", &ar) || ar.isvararg || ar.nparams >= 3;
}

static void push_slots(lua_State *L, RangeJob *job)
{
  fbRuleRunner *r = job->r;
  const fbWorld *w = r->ctx.world;
  for (int s = 0; s < w->species_count; ++s) {
    int rules = w->species[s].rule_count;
    luaL_checkstack(L, 1 + SLOTS_PER_RULE * rules + 8, "rule slots");
    job->slot[s] = lua_gettop(L) + 1;
    if (w->species[s].all_native) {
      lua_pushnil(L);
      job->plan[s].count = 0;
    } else {
      fbAgentViews_Prepare(&r->views, L, &r->ctx, s, rules, &job->plan[s]);
    }
    for (int k = 0; k < rules; ++k) {
      lua_rawgeti(L, LUA_REGISTRYINDEX, r->state[s][k].now.steer);
      job->takes_species[s][k] = takes_species(L);
      fbAgentViews_Push(&r->views, L, s, k);
      lua_rawgeti(L, LUA_REGISTRYINDEX, r->state[s][k].now.params);
      lua_rawgeti(L, LUA_REGISTRYINDEX, r->state[s][k].species);
    }
  }
  reserve_fill(L, job);
}

// A rule's steering function when it ran last (set by a return hook while a bad result is looked into).
static void return_hook(lua_State *L, lua_Debug *ar)
{
  fbRuleContext *c = fbRuleApi_Context(L);
  if (ar->event == LUA_HOOKRET && lua_getinfo(L, "Sl", ar) && ar->linedefined == c->return_defined &&
      strcmp(ar->source, c->return_source) == 0) {
    c->return_line = ar->currentline;
  }
}

/*
 * A rule returned something other than two finite numbers. To name the line of its `return` (not
 * of its `function`), it is called once more for this agent with a return hook and all its results
 * kept; whatever it did meanwhile is undone with the agent's other effects when the error unwinds.
 * Raises the error.
 */
static void bad_result(lua_State *L, fbRuleRunner *r, int slot, int s, int k)
{
  fbRuleContext *c = &r->ctx;
  lua_Debug ar;
  lua_pushvalue(L, slot);
  lua_getinfo(L, ">S", &ar);
  c->return_defined = ar.linedefined;
  snprintf(c->return_source, sizeof c->return_source, "%s", ar.source);
  c->return_line = -1;
  int top = lua_gettop(L);
  for (int q = 0; q < SLOTS_PER_RULE; ++q) {
    lua_pushvalue(L, slot + q);
  }
  lua_sethook(L, return_hook, LUA_MASKRET, 0);
  lua_call(L, 3, LUA_MULTRET);
  lua_sethook(L, NULL, 0, 0);
  int results = lua_gettop(L) - top;
  char got[256] = "";
  size_t used = 0;
  for (int q = 0; q < results && q < 4 && used < sizeof got; ++q) {
    used += (size_t)snprintf(got + used, sizeof got - used, "%s%s", q ? ", " : "", luaL_tolstring(L, top + 1 + q, NULL));
    lua_pop(L, 1);
  }
  char where[200];
  const char *colon = strrchr(r->state[s][k].now.where, ':');
  snprintf(where, sizeof where, "%.*s:%d", colon ? (int)(colon - r->state[s][k].now.where) : 0, r->state[s][k].now.where,
           c->return_line >= 0 ? c->return_line : ar.linedefined);
  lua_pushfstring(L, "%s: steer returned %d value%s (%s); expected two finite numbers within -1e9 .. 1e9, the acceleration", where, results,
                  results == 1 ? "" : "s", results ? got : "nothing");
  lua_error(L);
}

// Calls rule k of species s (its things from `slot` on) for the current agent, with the species
// table when it takes one; raises a Lua error (caught by fbRules_RunSkipping) unless the rule
// returns two finite numbers.
static fbVec2 call_rule(lua_State *L, fbRuleRunner *r, int slot, bool with_species, int s, int k)
{
  fbLuaHost_Progress(&r->host);
  r->ctx.rule = k;
  lua_pushvalue(L, slot);
  lua_pushvalue(L, slot + 1);
  lua_pushvalue(L, slot + 2);
  if (with_species) {
    lua_pushvalue(L, slot + 3);
  }
  lua_call(L, 2 + with_species, 2);
  fbVec2 out = {NAN, NAN};
  if (lua_type(L, -2) == LUA_TNUMBER && lua_type(L, -1) == LUA_TNUMBER) {
    out = fbV(lua_tonumber(L, -2), lua_tonumber(L, -1));
  }
  lua_pop(L, 2);
  if (!(fabs(out.x) <= FB_MAX_MAGNITUDE && fabs(out.y) <= FB_MAX_MAGNITUDE)) {  // NaN fails too
    bad_result(L, r, slot, s, k);
  }
  return out;
}

// Undoes what agent i did this step so far: its queued commands and its step-t+1 fields.
static void undo_agent(fbRuleRunner *r, int command_mark, int i)
{
  fbWorld *w = r->ctx.world;
  r->ctx.commands->count = command_mark;
  for (int f = 0; f < w->field_count; ++f) {
    w->agents.field_next[f][i] = w->agents.field[f][i];
  }
}

// One rule's output into the accumulator (or the forces or the drag), and the inspector when it is watched.
static void take_output(fbRuleRunner *r, const fbRuleSlot *slot, int k, int i, fbVec2 out, fbAccumulator *acc,
                        fbVec2 *force, fbVec2 *drag)
{
  if (i == r->inspect) {
    r->inspect_out[k] = out;
    r->inspect_ran[k] = true;
  }
  if (slot->drag) {
    *drag = fbV_Add(*drag, fbV_Scale(out, slot->weight));
  } else if (slot->force) {
    *force = fbV_Add(*force, fbV_Scale(out, slot->weight));
  } else if (slot->preempt) {
    fbAccum_AddPreemptive(acc, out, slot->weight);
  } else {
    fbAccum_Add(acc, out, slot->weight);
  }
}

static void run_agent(lua_State *L, RangeJob *job, int i)
{
  fbRuleRunner *r = job->r;
  fbWorld *w = r->ctx.world;
  fbAgents *a = &w->agents;
  int s = a->species[i];
  const fbSpecies *sp = &w->species[s];
  r->ctx.agent = i;
  r->ctx.species = s;
  double started = r->profile != NULL ? fbProfile_Now() : 0.0;
  bool steer_turn = sp->update_every <= 1 || (w->step + a->id[i]) % (uint64_t)sp->update_every == 0;
  if (!sp->all_native) {
    if (fbAgentViews_Grew(&r->views, s, sp->rule_count)) {  // a rule read a new field last agent
      fbAgentViews_Prepare(&r->views, L, &r->ctx, s, sp->rule_count, &job->plan[s]);
      lua_replace(L, job->slot[s]);
      reserve_fill(L, job);
    }
    fbAgentViews_Fill(L, job->slot[s], &job->plan[s], &r->ctx, i);
  }
  fbProfileCounters *profile = r->profile;
  double clock = 0.0;
  if (profile != NULL) {
    clock = fbProfile_Now();
    profile->view_ns[s] += clock - started - r->clock_ns;
    profile->agent_steps[s] += 1.0;
  }
  fbAccumulator acc;
  fbAccum_Begin(&acc, sp->accumulator, sp->limits.max_accel);
  fbVec2 force = {0, 0}, drag = {0, 0};
  r->ctx.held = false;
  r->ctx.removals = 0;
  for (int k = 0; k < sp->rule_count && !r->ctx.held; ++k) {
    const fbRuleSlot *slot = &sp->rules[k];
    bool physical = slot->force || slot->drag;  // forces and drags act every step, whatever the steering does
    if (slot->disabled || r->skip[s][k] || (!physical && (acc.done || !steer_turn))) {
      continue;
    }
    fbVec2 out = slot->native ? slot->native(&r->ctx, i) : call_rule(L, r, job->slot[s] + 1 + SLOTS_PER_RULE * k, job->takes_species[s][k], s, k);
    if (profile != NULL) {  // a rule that raised an error is not timed: its time is lost with the agent's step
      double now = fbProfile_Now();
      profile->rule_ns[s][k] += now - clock - r->clock_ns;
      clock = now;
    }
    take_output(r, slot, k, i, out, &acc, &force, &drag);
  }
  // A held agent (a:hold()) sits still: nothing steers or pushes it. Between its steering turns
  // (update_every) it stays as its last turn left it.
  if (steer_turn) {
    a->held[i] = r->ctx.held;
  }
  bool held = a->held[i];
  if (steer_turn) {
    fbVec2 steer = held ? fbV(0, 0) : fbAccum_Result(&acc);
    a->ax[i] = steer.x;
    a->ay[i] = steer.y;
  }
  a->fx[i] = held ? 0.0 : force.x;
  a->fy[i] = held ? 0.0 : force.y;
  // Gompert's form: his Update adds each frame's drag to an acceleration that only a behaviour
  // update resets, so between steering turns the drags add up (integrate.c, add_drag).
  if (sp->limits.drag_form == FB_DRAG_GOMPERT && !steer_turn) {
    drag = fbV_Add(fbV(a->carried_dx[i], a->carried_dy[i]), drag);
  }
  a->dx[i] = held ? 0.0 : drag.x;
  a->dy[i] = held ? 0.0 : drag.y;
}

static int run_range(lua_State *L)
{
  RangeJob *job = lua_touserdata(L, 1);
  fbRuleRunner *r = job->r;
  push_slots(L, job);
  const fbAgents *a = &r->ctx.world->agents;
  for (; job->next < job->end; ++job->next) {
    int i = job->next;
    if (!a->active[i]) {
      continue;
    }
    job->command_mark = r->ctx.commands->count;
    if (i == r->inspect) {
      memset(r->inspect_ran, 0, sizeof r->inspect_ran);
    }
    run_agent(L, job, i);
  }
  return 0;
}

static void record_failure(fbRuleRunner *r, int agent, const char *message)
{
  int s = r->ctx.species, k = r->ctx.rule;
  r->skip[s][k] = true;
  if (r->failure_count < FB_MAX_FAILURES) {
    fbRuleFailure *f = &r->failures[r->failure_count++];
    f->species = s;
    f->rule = k;
    f->agent = agent;
    snprintf(f->message, sizeof f->message, "%s", message);
  }
}

/*
 * All agents of the range run inside one protected call, so a rule call costs a plain lua_call.
 * When a rule fails, the error unwinds to here: the failing rule is marked skipped, the agent's
 * queued commands and step-t+1 fields are rolled back, and the loop resumes at that same agent.
 */
void fbRules_Run(fbRuleRunner *r, int begin, int end) { fbRules_RunSkipping(r, begin, end, NULL); }

void fbRules_RunSkipping(fbRuleRunner *r, int begin, int end, const bool (*skip)[FB_MAX_RULES])
{
  lua_State *L = r->host.L;
  static _Thread_local RangeJob job;  // large (the species' plans): one per thread, off the stack
  job = (RangeJob){.r = r, .next = begin, .end = end, .command_mark = r->ctx.commands->count};
  if (skip != NULL) {
    memcpy(r->skip, skip, sizeof r->skip);
  } else {
    memset(r->skip, 0, sizeof r->skip);
  }
  r->ctx.seen_agent = -1;  // perception has run again since anything was seen on demand
  r->failure_count = 0;
  r->host.out_of_memory_at[0] = '\0';
  fbLuaHost_Enter(&r->host);
  while (job.next < job.end) {
    fbLuaHost_PushTraceback(L);
    lua_pushcfunction(L, run_range);
    lua_pushlightuserdata(L, &job);
    int status = lua_pcall(L, 1, 0, -3);
    fbLuaHost_Disarm(&r->host);  // the watchdog's hook, or the return hook a bad result left
    if (status == LUA_OK) {
      lua_pop(L, 1);
      break;
    }
    const char *msg = lua_tostring(L, -1);
    char where[320], oom[512];
    fbLuaHost_TakeOutOfMemoryAt(&r->host, where, sizeof where);
    if (status == LUA_ERRMEM && where[0] != '\0') {
      snprintf(oom, sizeof oom, "%s not enough memory (the Lua state's budget is %zu MB)", where,
               r->host.memory_limit >> 20);
      msg = oom;
    }
    record_failure(r, job.next, msg != NULL ? msg : "(error object is not a string)");
    lua_pop(L, 2);
    undo_agent(r, job.command_mark, job.next);
  }
  fbLuaHost_Leave(&r->host);
}
