// rules.c — the agent view rules see, the C functions they may call, and the protected rule loop.
#include "rules.h"

#include <lauxlib.h>
#include <string.h>

#include "rng.h"

static fbRuleContext *ctx_of(lua_State *L) { return fbLuaHost_Of(L)->context; }

static int l_view_index(lua_State *L);

// ---- what rules may call ------------------------------------------------------------------------

// The current agent's own perception (list and nearest), computed now for this agent alone: the
// step's perception kept neither for its species. Exactly what fbPerceive would have kept.
static const fbNeighbourList *seen_now(fbRuleContext *c)
{
  if (c->seen_agent != c->agent) {
    fbPerceive_One(c->perception, c->agent, &c->seen, &c->seen_nearest);
    c->seen_agent = c->agent;
  }
  return &c->seen;
}

// Where the current agent's k-th flock-mate (1-based) is: an entry of the returned list.
static const fbNeighbourList *flock_mate(lua_State *L, fbRuleContext *c, int arg, int *entry)
{
  int n = c->agg->n[c->agent];
  lua_Integer k = luaL_checkinteger(L, arg);
  luaL_argcheck(L, k >= 1 && k <= n, arg, "neighbour index out of range 1..a.n");
  int s = c->world->agents.species[c->agent];
  if (c->perception->vision[s].list) {
    *entry = c->agg->first[c->agent] + (int)k - 1;
    return c->list;
  }
  c->wants_list |= 1u << s;
  *entry = (int)k - 1;
  return seen_now(c);
}

static int l_neighbour(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  int e;
  const fbNeighbourList *l = flock_mate(L, c, 2, &e);
  int j = l->index[e];
  const fbAgents *a = &c->world->agents;
  lua_pushnumber(L, l->dx[e]);
  lua_pushnumber(L, l->dy[e]);
  lua_pushnumber(L, l->dist[e]);
  lua_pushnumber(L, a->vx[j]);
  lua_pushnumber(L, a->vy[j]);
  lua_pushinteger(L, a->id[j]);
  return 6;
}

static int field_arg(lua_State *L, int arg)
{
  const char *name = luaL_checkstring(L, arg);
  int f = fbWorld_FindField(ctx_of(L)->world, name);
  if (f < 0) {
    luaL_error(L, "unknown field '%s' (declare it in the rule's fields table)", name);
  }
  return f;
}

static int l_neighbour_field(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  int e;
  const fbNeighbourList *l = flock_mate(L, c, 2, &e);
  int f = field_arg(L, 3);
  lua_pushnumber(L, c->world->agents.field[f][l->index[e]]);
  return 1;
}

static int l_get(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  int f = field_arg(L, 2);
  lua_pushnumber(L, c->world->agents.field[f][c->agent]);
  return 1;
}

static int l_set(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  int f = field_arg(L, 2);
  double v = lua_isboolean(L, 3) ? (double)lua_toboolean(L, 3) : luaL_checknumber(L, 3);
  if (!isfinite(v)) {
    return luaL_error(L, "field '%s' set to a non-finite value", c->world->field_names[f]);
  }
  c->world->agents.field_next[f][c->agent] = v;
  return 0;
}

static int l_random(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  lua_Integer stream = luaL_optinteger(L, 2, 0);
  const fbWorld *w = c->world;
  lua_pushnumber(L, fbRng_Uniform(w->seed, w->agents.id[c->agent], w->step, (uint64_t)stream));
  return 1;
}

static int push_terrain(lua_State *L, const fbTerrain *t, double x, double y)
{
  fbVec2 g = fbTerrain_Gradient(t, x, y);
  lua_pushnumber(L, fbTerrain_Height(t, x, y));
  lua_pushnumber(L, g.x);
  lua_pushnumber(L, g.y);
  return 3;
}

static int l_agent_terrain(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  const fbAgents *a = &c->world->agents;
  return push_terrain(L, &c->world->terrain, a->px[c->agent], a->py[c->agent]);
}

static int l_terrain(lua_State *L)
{
  return push_terrain(L, &ctx_of(L)->world->terrain, luaL_checknumber(L, 1), luaL_checknumber(L, 2));
}

static fbVec2 agent_pos(const fbRuleContext *c)
{
  return fbV(c->world->agents.px[c->agent], c->world->agents.py[c->agent]);
}

static fbVec2 agent_heading(const fbRuleContext *c)
{
  return fbV(c->world->agents.hx[c->agent], c->world->agents.hy[c->agent]);
}

// a:obstacle(range) -> distance to the surface, outward normal, closest point; nil if none in range.
static int l_obstacle(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  double range = luaL_checknumber(L, 2);
  fbVec2 p = agent_pos(c);
  int index;
  double d;
  if (!fbObstacles_Nearest(&c->world->obstacles, p, range, &index, &d)) {
    lua_pushnil(L);
    return 1;
  }
  fbVec2 closest, normal;
  fbObstacles_Distance(&c->world->obstacles, index, p, &closest, &normal);
  lua_pushnumber(L, d);
  lua_pushnumber(L, normal.x);
  lua_pushnumber(L, normal.y);
  lua_pushnumber(L, closest.x);
  lua_pushnumber(L, closest.y);
  return 5;
}

// a:feeler(length, pad) -> distance along the heading to the first obstacle, its normal there and
// its centre; nil if the feeler is clear (Bourg ch. 4).
static int l_feeler(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  double length = luaL_checknumber(L, 2);
  double pad = luaL_optnumber(L, 3, 0.0);
  fbObstacleHit hit;
  if (!fbObstacles_Raycast(&c->world->obstacles, agent_pos(c), agent_heading(c), length, pad, &hit)) {
    lua_pushnil(L);
    return 1;
  }
  fbVec2 centre = c->world->obstacles.items[hit.index].centre;
  lua_pushnumber(L, hit.distance);
  lua_pushnumber(L, hit.normal.x);
  lua_pushnumber(L, hit.normal.y);
  lua_pushnumber(L, centre.x);
  lua_pushnumber(L, centre.y);
  return 5;
}

// a:silhouette(range, pad) -> the point past the nearest silhouette edge of the nearest obstacle
// ahead within range, and that obstacle's distance; nil if nothing is in the way (Gompert 6.2).
static int l_silhouette(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  double range = luaL_checknumber(L, 2);
  double pad = luaL_optnumber(L, 3, 0.0);
  fbVec2 p = agent_pos(c), h = agent_heading(c);
  int found[64];
  int n = fbObstacles_Query(&c->world->obstacles, p, range, found, 64);
  n = n < 64 ? n : 64;
  double best = INFINITY;
  fbVec2 target = {0, 0};
  for (int k = 0; k < n; ++k) {
    fbVec2 t;
    double d = fbObstacles_Distance(&c->world->obstacles, found[k], p, NULL, NULL);
    if (d < best && fbObstacles_Silhouette(&c->world->obstacles, found[k], p, h, pad, &t)) {
      best = d;
      target = t;
    }
  }
  if (!isfinite(best)) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushnumber(L, target.x);
  lua_pushnumber(L, target.y);
  lua_pushnumber(L, best);
  return 3;
}

// a:nearest(species, radius) -> offset, distance, velocity and id of the nearest agent of that
// species within radius (any direction); nil if none.
static int l_nearest(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  const char *name = luaL_checkstring(L, 2);
  double radius = luaL_checknumber(L, 3);
  int s = fbWorld_FindSpecies(c->world, name);
  if (s < 0) {
    return luaL_error(L, "unknown species '%s'", name);
  }
  double d;
  fbVec2 off;
  int j = fbPerception_Nearest(c->perception, agent_pos(c), radius, 1u << s, c->agent, &off, &d);
  if (j < 0) {
    lua_pushnil(L);
    return 1;
  }
  const fbAgents *a = &c->world->agents;
  lua_pushnumber(L, off.x);
  lua_pushnumber(L, off.y);
  lua_pushnumber(L, d);
  lua_pushnumber(L, a->vx[j]);
  lua_pushnumber(L, a->vy[j]);
  lua_pushinteger(L, a->id[j]);
  return 6;
}

// a:remove(id): queue the removal of an agent (a catch); applied after the step.
static int l_remove(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  lua_Integer id = luaL_checkinteger(L, 2);
  fbCommand cmd = {.kind = FB_CMD_REMOVE, .target = (uint32_t)id, .by = c->world->agents.id[c->agent]};
  fbCommands_Push(c->commands, cmd);
  return 0;
}

static int l_goal(lua_State *L)
{
  const fbWorld *w = ctx_of(L)->world;
  int g = fbWorld_FindGoal(w, luaL_checkstring(L, 1));
  if (g < 0) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushnumber(L, w->goals[g].p.x);
  lua_pushnumber(L, w->goals[g].p.y);
  return 2;
}

static int l_world(lua_State *L)
{
  const fbWorld *w = ctx_of(L)->world;
  lua_pushnumber(L, w->width);
  lua_pushnumber(L, w->height);
  lua_pushboolean(L, w->bounds == FB_BOUNDS_WRAP);
  return 3;
}

// fb.input() -> the player's steering input x, y in [-1, 1] (arrow keys, or the scenario's course)
static int l_input(lua_State *L)
{
  const fbWorld *w = ctx_of(L)->world;
  lua_pushnumber(L, w->input.x);
  lua_pushnumber(L, w->input.y);
  return 2;
}

static const luaL_Reg view_methods[] = {
    {"neighbour", l_neighbour}, {"neighbour_field", l_neighbour_field}, {"get", l_get},
    {"set", l_set},             {"random", l_random},                   {"terrain", l_agent_terrain},
    {"obstacle", l_obstacle},   {"feeler", l_feeler},                   {"silhouette", l_silhouette},
    {"nearest", l_nearest},     {"remove", l_remove},                   {NULL, NULL}};

static const luaL_Reg fb_functions[] = {{"terrain", l_terrain}, {"goal", l_goal}, {"world", l_world},
                                          {"input", l_input},     {NULL, NULL}};

bool fbRules_Open(fbRuleRunner *r, size_t memory_limit, int timeout_ms)
{
  memset(r, 0, sizeof *r);
  r->inspect = -1;
  r->ctx.seen_agent = -1;
  if (!fbLuaHost_Create(&r->host, memory_limit, timeout_ms)) {
    return false;
  }
  r->host.context = &r->ctx;
  lua_State *L = r->host.L;
  // The view is one table per state, refilled for every agent: rules allocate nothing to get it.
  lua_newtable(L);
  luaL_setfuncs(L, view_methods, 0);
  lua_newtable(L);
  lua_pushcfunction(L, l_view_index);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
  r->view_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  luaL_newlib(L, fb_functions);
  lua_setglobal(L, "fb");
  for (int s = 0; s < FB_MAX_SPECIES; ++s) {
    r->species_ref[s] = LUA_NOREF;
    for (int k = 0; k < FB_MAX_RULES; ++k) {
      r->steer_ref[s][k] = r->params_ref[s][k] = LUA_NOREF;
      r->previous_steer_ref[s][k] = r->previous_params_ref[s][k] = LUA_NOREF;
    }
  }
  return true;
}

void fbRules_Close(fbRuleRunner *r)
{
  fbLuaHost_Destroy(&r->host);
  fbNeighbourList_Free(&r->ctx.seen);
}

// ---- loading ------------------------------------------------------------------------------------

static const char *value_kind_name(fbValueKind kind)
{
  return kind == FB_VALUE_BOOL ? "boolean" : kind == FB_VALUE_STRING ? "string" : "number";
}

// Writes the scenario's parameter overrides into the defaults table at -1, refusing names the
// module does not know and values whose type differs from the default's.
static bool merge_overrides(lua_State *L, const fbRuleDef *def, const char *what, char *err, size_t errlen)
{
  for (int k = 0; k < def->param_count; ++k) {
    const fbParamDef *p = &def->params[k];
    int expected = lua_getfield(L, -1, p->name);
    lua_pop(L, 1);
    if (expected == LUA_TNIL) {
      snprintf(err, errlen, "%s: params.%s: unknown parameter (see the rule's params table)", what, p->name);
      return false;
    }
    int got = p->kind == FB_VALUE_BOOL ? LUA_TBOOLEAN : p->kind == FB_VALUE_STRING ? LUA_TSTRING : LUA_TNUMBER;
    if (expected != got) {
      snprintf(err, errlen, "%s: params.%s: expected a %s, got a %s", what, p->name, lua_typename(L, expected),
               value_kind_name(p->kind));
      return false;
    }
    switch (p->kind) {
    case FB_VALUE_INTEGER: lua_pushinteger(L, (lua_Integer)p->number); break;
    case FB_VALUE_NUMBER: lua_pushnumber(L, p->number); break;
    case FB_VALUE_BOOL: lua_pushboolean(L, p->number != 0); break;
    case FB_VALUE_STRING: lua_pushstring(L, p->text); break;
    }
    lua_setfield(L, -2, p->name);
  }
  return true;
}

// Declares the module's `fields = { name = initial }` in the world.
static bool declare_fields(lua_State *L, fbWorld *w, const char *what, char *err, size_t errlen)
{
  if (lua_getfield(L, -1, "fields") != LUA_TTABLE) {
    lua_pop(L, 1);
    return true;
  }
  lua_pushnil(L);
  while (lua_next(L, -2) != 0) {
    if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TNUMBER) {
      snprintf(err, errlen, "%s: fields: expected name = number pairs", what);
      lua_pop(L, 3);
      return false;
    }
    if (fbWorld_DeclareField(w, lua_tostring(L, -2), lua_tonumber(L, -1)) < 0) {
      snprintf(err, errlen, "%s: fields.%s: too many per-agent fields (at most %d)", what, lua_tostring(L, -2),
               FB_MAX_FIELDS);
      lua_pop(L, 3);
      return false;
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return true;
}

// Calls module.validate(params, species) if present (module at `module`, params at `params`): it
// returns nil, or a parameter name and a message.
static bool validate_params(fbRuleRunner *r, int species, int module, int params, const char *what, char *err,
                            size_t errlen)
{
  lua_State *L = r->host.L;
  if (lua_getfield(L, module, "validate") != LUA_TFUNCTION) {
    lua_pop(L, 1);
    return true;
  }
  lua_pushvalue(L, params);
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->species_ref[species]);
  char msg[1024];
  if (!fbLuaHost_Call(&r->host, 2, 2, msg, sizeof msg)) {
    snprintf(err, errlen, "%s: validate failed: %s", what, msg);
    return false;
  }
  bool ok = lua_isnil(L, -2);
  if (!ok) {
    snprintf(err, errlen, "%s: params.%s: %s", what, lua_tostring(L, -2) ? lua_tostring(L, -2) : "?",
             lua_tostring(L, -1) ? lua_tostring(L, -1) : "out of range");
  }
  lua_pop(L, 2);
  return ok;
}

// Pushes a new table with the module's default params (module at index `module`).
static void push_defaults(lua_State *L, int module)
{
  lua_newtable(L);
  if (lua_getfield(L, module, "params") == LUA_TTABLE) {
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_settable(L, -5);
    }
  }
  lua_pop(L, 1);
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
static bool load_rule(fbRuleRunner *r, fbWorld *w, int species, int rule, const char *path, const fbRuleDef *def,
                      const char *what, bool keep_previous, char *err, size_t errlen)
{
  lua_State *L = r->host.L;
  int top = lua_gettop(L);
  r->ctx.world = w;
  r->ctx.rule = rule;
  if (!fbLuaHost_RunFile(&r->host, path, err, errlen)) {
    return false;
  }
  int module = lua_gettop(L);
  bool ok = false;
  if (!lua_istable(L, module)) {
    snprintf(err, errlen, "%s: must return a table with a steer function", path);
  } else if (lua_getfield(L, module, "steer") != LUA_TFUNCTION) {
    snprintf(err, errlen, "%s: steer: expected a function, got %s", path, luaL_typename(L, -1));
  } else {
    int steer = lua_gettop(L);
    push_defaults(L, module);
    int params = lua_gettop(L);
    ok = merge_overrides(L, def, what, err, errlen) && validate_params(r, species, module, params, what, err, errlen);
    lua_pushvalue(L, module);
    ok = ok && declare_fields(L, w, what, err, errlen);
    if (ok && keep_previous) {
      fbRules_Settle(r, species, rule);
      r->previous_steer_ref[species][rule] = r->steer_ref[species][rule];
      r->previous_params_ref[species][rule] = r->params_ref[species][rule];
      memcpy(r->previous_where[species][rule], r->where[species][rule], sizeof r->where[species][rule]);
      r->steer_ref[species][rule] = r->params_ref[species][rule] = LUA_NOREF;
    }
    if (ok) {
      fbLua_FunctionWhere(L, steer, r->where[species][rule], sizeof r->where[species][rule]);
      lua_pushvalue(L, params);
      replace_ref(L, &r->params_ref[species][rule]);
      lua_pushvalue(L, steer);
      replace_ref(L, &r->steer_ref[species][rule]);
    }
  }
  lua_settop(L, top);
  return ok;
}

bool fbRules_Load(fbRuleRunner *r, fbWorld *w, int species, int rule, const char *path, const fbRuleDef *def,
                  const char *what, char *err, size_t errlen)
{
  return load_rule(r, w, species, rule, path, def, what, false, err, errlen);
}

bool fbRules_Reload(fbRuleRunner *r, fbWorld *w, int species, int rule, const char *path, const fbRuleDef *def,
                    const char *what, char *err, size_t errlen)
{
  return load_rule(r, w, species, rule, path, def, what, true, err, errlen);
}

bool fbRules_Fallback(fbRuleRunner *r, int species, int rule)
{
  lua_State *L = r->host.L;
  if (r->previous_steer_ref[species][rule] == LUA_NOREF) {
    return false;
  }
  luaL_unref(L, LUA_REGISTRYINDEX, r->steer_ref[species][rule]);
  luaL_unref(L, LUA_REGISTRYINDEX, r->params_ref[species][rule]);
  r->steer_ref[species][rule] = r->previous_steer_ref[species][rule];
  r->params_ref[species][rule] = r->previous_params_ref[species][rule];
  memcpy(r->where[species][rule], r->previous_where[species][rule], sizeof r->where[species][rule]);
  r->previous_steer_ref[species][rule] = r->previous_params_ref[species][rule] = LUA_NOREF;
  return true;
}

void fbRules_Settle(fbRuleRunner *r, int species, int rule)
{
  lua_State *L = r->host.L;
  luaL_unref(L, LUA_REGISTRYINDEX, r->previous_steer_ref[species][rule]);
  luaL_unref(L, LUA_REGISTRYINDEX, r->previous_params_ref[species][rule]);
  r->previous_steer_ref[species][rule] = r->previous_params_ref[species][rule] = LUA_NOREF;
}

void fbRules_SetSpecies(fbRuleRunner *r, const fbWorld *w, int species)
{
  lua_State *L = r->host.L;
  const fbSpecies *s = &w->species[species];
  lua_newtable(L);
  lua_pushstring(L, s->name);
  lua_setfield(L, -2, "name");
  const struct {
    const char *key;
    double value;
  } values[] = {{"max_speed", s->limits.max_speed},
                {"min_speed", s->limits.min_speed},
                {"max_accel", s->limits.max_accel},
                {"cruise_speed", s->cruise_speed},
                {"body_length", s->body_length},
                {"radius", s->vision.radius},
                {"fov", s->fov_degrees},
                {"separation", s->vision.separation_radius},
                {"dt", w->dt},
                {"width", w->width},
                {"height", w->height}};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; ++i) {
    lua_pushnumber(L, values[i].value);
    lua_setfield(L, -2, values[i].key);
  }
  lua_pushboolean(L, w->bounds == FB_BOUNDS_WRAP);
  lua_setfield(L, -2, "wraps");
  if (r->species_ref[species] != LUA_NOREF) {
    luaL_unref(L, LUA_REGISTRYINDEX, r->species_ref[species]);
  }
  r->species_ref[species] = luaL_ref(L, LUA_REGISTRYINDEX);
}

bool fbRules_SetParam(fbRuleRunner *r, int species, int rule, const char *name, double value)
{
  lua_State *L = r->host.L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->params_ref[species][rule]);
  if (!lua_istable(L, -1) || lua_getfield(L, -1, name) != LUA_TNUMBER) {
    lua_pop(L, lua_istable(L, -1) ? 2 : 1);
    return false;
  }
  lua_pop(L, 1);
  lua_pushnumber(L, value);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
  return true;
}

static int compare_names(const void *a, const void *b) { return strcmp(a, b); }

int fbRules_ListParams(const fbRuleRunner *r, int species, int rule, char names[][FB_NAME_LEN], double *values, int max)
{
  lua_State *L = r->host.L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->params_ref[species][rule]);
  int n = 0;
  if (lua_istable(L, -1)) {
    lua_pushnil(L);
    while (n < max && lua_next(L, -2) != 0) {
      if (lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TNUMBER && lua_rawlen(L, -2) < FB_NAME_LEN) {
        snprintf(names[n++], FB_NAME_LEN, "%s", lua_tostring(L, -2));
      }
      lua_pop(L, 1);
    }
  }
  // Table order is not stable across runs: sort by name, then read the values.
  qsort(names, (size_t)n, FB_NAME_LEN, compare_names);
  for (int k = 0; k < n; ++k) {
    lua_getfield(L, -1, names[k]);
    values[k] = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return n;
}

void fbRules_WriteParams(const fbRuleRunner *r, int species, int rule, FILE *out)
{
  lua_State *L = r->host.L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->params_ref[species][rule]);
  fbLua_Write(L, -1, out);
  lua_pop(L, 1);
}

// ---- running ------------------------------------------------------------------------------------

typedef struct RangeJob {
  fbRuleRunner *r;
  int next, end;
  int command_mark;  // queue length when the current agent started: a retried agent drops its commands
} RangeJob;

/*
 * The agent view. Setting a field through the C API costs about as much as a rule's whole body,
 * so the view holds only the fields some rule has read. It starts with none: a read of a missing
 * field goes to __index (view_index below), which answers for the current agent and adds the
 * field to view_mask; from the next agent on, the field is filled up front and read directly.
 * A field is never in the table unless it is filled for every agent, so no value is ever stale.
 */
typedef enum ViewSource {
  FROM_AGENTS,      // a double array of fbAgents (or a declared per-agent field)
  FROM_AGGREGATES,  // a double array of fbAggregates
  FROM_SPEED,       // |v|
  FROM_COUNT,       // flock-mates seen (an integer)
  FROM_ID,          // the agent's id (an integer)
  FROM_NEAREST,     // the nearest flock-mate's distance, perceived on demand if not kept
} ViewSource;

// Every key of the view and where its value comes from; declared per-agent fields follow these.
static const struct ViewKey {
  const char *name;
  ViewSource source;
  size_t offset;  // of the array in fbAgents or fbAggregates
} view_keys[] = {
    {"x", FROM_AGENTS, offsetof(fbAgents, px)},         {"y", FROM_AGENTS, offsetof(fbAgents, py)},
    {"vx", FROM_AGENTS, offsetof(fbAgents, vx)},        {"vy", FROM_AGENTS, offsetof(fbAgents, vy)},
    {"hx", FROM_AGENTS, offsetof(fbAgents, hx)},        {"hy", FROM_AGENTS, offsetof(fbAgents, hy)},
    {"cx", FROM_AGGREGATES, offsetof(fbAggregates, cx)}, {"cy", FROM_AGGREGATES, offsetof(fbAggregates, cy)},
    {"avx", FROM_AGGREGATES, offsetof(fbAggregates, avx)}, {"avy", FROM_AGGREGATES, offsetof(fbAggregates, avy)},
    {"sx", FROM_AGGREGATES, offsetof(fbAggregates, sx)}, {"sy", FROM_AGGREGATES, offsetof(fbAggregates, sy)},
    {"nearest_dist", FROM_NEAREST, 0},                  {"energy", FROM_AGENTS, offsetof(fbAgents, energy)},
    {"speed", FROM_SPEED, 0},                           {"n", FROM_COUNT, 0},
    {"id", FROM_ID, 0},
};
#define FB_VIEW_KEYS ((int)(sizeof view_keys / sizeof view_keys[0]))

// One key the view holds, resolved for the current step: its name's stack slot and its values.
typedef struct ViewFill {
  int key;
  ViewSource source;
  const double *values;  // FROM_AGENTS, FROM_AGGREGATES
} ViewFill;

typedef struct ViewPlan {
  uint64_t mask;         // the view_mask it was made for
  int count;
  ViewFill fill[FB_VIEW_KEYS + FB_MAX_FIELDS];
} ViewPlan;

// View key k (a declared field after the fixed keys) resolved to its arrays for this step: field
// and aggregate arrays move between steps (double buffers, agents sorted in space).
static ViewFill resolve_key(const fbRuleContext *c, int k)
{
  ViewFill f = {k, FROM_AGENTS, NULL};
  if (k >= FB_VIEW_KEYS) {
    f.values = c->world->agents.field[k - FB_VIEW_KEYS];
    return f;
  }
  f.source = view_keys[k].source;
  if (f.source == FROM_AGENTS) {
    f.values = *(double *const *)((const char *)&c->world->agents + view_keys[k].offset);
  } else if (f.source == FROM_AGGREGATES) {
    f.values = *(double *const *)((const char *)c->agg + view_keys[k].offset);
  }
  return f;
}

static void plan_view(ViewPlan *p, const fbRuleContext *c)
{
  p->mask = c->view_mask;
  p->count = 0;
  int keys = FB_VIEW_KEYS + c->world->field_count;
  for (int k = 0; k < keys; ++k) {
    if (p->mask & ((uint64_t)1 << k)) {
      p->fill[p->count++] = resolve_key(c, k);
    }
  }
}

// The distance to the current agent's nearest flock-mate when perception did not keep it for its
// species: perceived now, and kept by perception from the next step on.
static double nearest_now(fbRuleContext *c)
{
  c->wants_nearest |= 1u << c->world->agents.species[c->agent];
  seen_now(c);
  return c->seen_nearest;
}

// Pushes the value of one view key for agent i (the current one).
static inline void push_view_value(lua_State *L, fbRuleContext *c, const ViewFill *f, int i)
{
  switch (f->source) {
  case FROM_AGENTS:
  case FROM_AGGREGATES: lua_pushnumber(L, f->values[i]); break;
  case FROM_SPEED: lua_pushnumber(L, sqrt(c->world->agents.vx[i] * c->world->agents.vx[i] +
                                          c->world->agents.vy[i] * c->world->agents.vy[i])); break;
  case FROM_COUNT: lua_pushinteger(L, c->agg->n[i]); break;
  case FROM_ID: lua_pushinteger(L, c->world->agents.id[i]); break;
  case FROM_NEAREST:
    lua_pushnumber(L, c->perception->vision[c->world->agents.species[i]].nearest ? c->agg->nearest[i] : nearest_now(c));
    break;
  }
}

static int view_key_index(const fbWorld *w, const char *key)
{
  for (int k = 0; k < FB_VIEW_KEYS; ++k) {
    if (strcmp(view_keys[k].name, key) == 0) {
      return k;
    }
  }
  int f = fbWorld_FindField(w, key);
  return f >= 0 ? FB_VIEW_KEYS + f : -1;
}

// __index of the view: a field no rule had read yet. Answer it, and fill it from now on.
static int l_view_index(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  const char *key = lua_tostring(L, 2);
  int k = key != NULL && lua_type(L, 2) == LUA_TSTRING ? view_key_index(c->world, key) : -1;
  if (k < 0 || c->agent < 0 || c->agent >= c->world->agents.count) {
    lua_pushnil(L);
    return 1;
  }
  c->view_mask |= (uint64_t)1 << k;
  ViewFill f = resolve_key(c, k);
  push_view_value(L, c, &f, c->agent);
  return 1;
}

// Pushes the names of the view's keys once per range onto the stack (from the returned index on),
// so that filling the view per agent is a raw set with an already interned string.
static int push_view_keys(lua_State *L, const fbWorld *w)
{
  luaL_checkstack(L, FB_VIEW_KEYS + FB_MAX_FIELDS + 8, "view keys");
  int first = lua_gettop(L) + 1;
  for (int k = 0; k < FB_VIEW_KEYS; ++k) {
    lua_pushstring(L, view_keys[k].name);
  }
  for (int f = 0; f < w->field_count; ++f) {
    lua_pushstring(L, w->field_names[f]);
  }
  return first;
}

// Fills the view table (at stack index view) with the fields rules read, for agent i at step t.
static void fill_view(lua_State *L, int view, int keys, ViewPlan *plan, fbRuleContext *c, int i)
{
  if (plan->mask != c->view_mask) {
    plan_view(plan, c);  // a rule read a new field on the agent before
  }
  for (int f = 0; f < plan->count; ++f) {
    lua_pushvalue(L, keys + plan->fill[f].key);
    push_view_value(L, c, &plan->fill[f], i);
    lua_rawset(L, view);
  }
}

// Raises the error for a rule whose two results (on top of the stack) are not two finite numbers.
static void bad_result(lua_State *L, fbRuleRunner *r, int s, int k)
{
  const char *sx = luaL_tolstring(L, -2, NULL);
  const char *sy = luaL_tolstring(L, -2, NULL);
  lua_pushfstring(L, "%s: steer returned %s, %s (expected two finite numbers)", r->where[s][k], sx, sy);
  lua_error(L);
}

// Calls one rule for the current agent; raises a Lua error (caught by run_range's caller) unless
// the rule returns two finite numbers.
static fbVec2 call_rule(lua_State *L, fbRuleRunner *r, int view, int s, int k)
{
  fbLuaHost_Progress(&r->host);
  r->ctx.rule = k;
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->steer_ref[s][k]);
  lua_pushvalue(L, view);
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->params_ref[s][k]);
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->species_ref[s]);
  lua_call(L, 3, 2);
  if (lua_type(L, -2) != LUA_TNUMBER || lua_type(L, -1) != LUA_TNUMBER) {
    bad_result(L, r, s, k);
  }
  fbVec2 out = fbV(lua_tonumber(L, -2), lua_tonumber(L, -1));
  lua_pop(L, 2);
  if (!isfinite(out.x) || !isfinite(out.y)) {
    lua_pushnumber(L, out.x);
    lua_pushnumber(L, out.y);
    bad_result(L, r, s, k);
  }
  return out;
}

static void run_agent(lua_State *L, RangeJob *job, int view, int keys, ViewPlan *plan, int i)
{
  fbRuleRunner *r = job->r;
  fbWorld *w = r->ctx.world;
  fbAgents *a = &w->agents;
  int s = a->species[i];
  const fbSpecies *sp = &w->species[s];
  r->ctx.agent = i;
  r->ctx.species = s;
  bool steer_turn = sp->update_every <= 1 || (w->step + a->id[i]) % (uint64_t)sp->update_every == 0;
  if (!sp->all_native) {
    fill_view(L, view, keys, plan, &r->ctx, i);
  }
  fbAccumulator acc;
  fbAccum_Begin(&acc, sp->accumulator, sp->limits.max_accel);
  fbVec2 force = {0, 0};
  for (int k = 0; k < sp->rule_count; ++k) {
    const fbRuleSlot *slot = &sp->rules[k];
    if (slot->disabled || r->skip[s][k] || (!slot->force && (acc.done || !steer_turn))) {
      continue;
    }
    fbVec2 out = slot->native ? slot->native(&r->ctx, i) : call_rule(L, r, view, s, k);
    if (i == r->inspect) {
      r->inspect_out[k] = out;
      r->inspect_ran[k] = true;
    }
    if (slot->force) {
      force = fbV_Add(force, fbV_Scale(out, slot->weight));
    } else {
      fbAccum_Add(&acc, out, slot->weight);
    }
  }
  if (steer_turn) {
    fbVec2 steer = fbAccum_Result(&acc);
    a->ax[i] = steer.x;
    a->ay[i] = steer.y;
  }
  a->fx[i] = force.x;
  a->fy[i] = force.y;
}

static int run_range(lua_State *L)
{
  RangeJob *job = lua_touserdata(L, 1);
  fbRuleRunner *r = job->r;
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->view_ref);
  int view = lua_gettop(L);
  int keys = push_view_keys(L, r->ctx.world);
  ViewPlan plan;
  plan_view(&plan, &r->ctx);
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
    run_agent(L, job, view, keys, &plan, i);
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
  fbWorld *w = r->ctx.world;
  RangeJob job = {.r = r, .next = begin, .end = end, .command_mark = r->ctx.commands->count};
  if (skip != NULL) {
    memcpy(r->skip, skip, sizeof r->skip);
  } else {
    memset(r->skip, 0, sizeof r->skip);
  }
  r->ctx.seen_agent = -1;  // perception has run again since anything was seen on demand
  r->failure_count = 0;
  fbLuaHost_Enter(&r->host);
  while (job.next < job.end) {
    fbLuaHost_PushTraceback(L);
    lua_pushcfunction(L, run_range);
    lua_pushlightuserdata(L, &job);
    int status = lua_pcall(L, 1, 0, -3);
    if (status == LUA_OK) {
      lua_pop(L, 1);
      break;
    }
    const char *msg = lua_tostring(L, -1);
    record_failure(r, job.next, msg != NULL ? msg : "(error object is not a string)");
    lua_pop(L, 2);
    r->ctx.commands->count = job.command_mark;
    for (int f = 0; f < w->field_count; ++f) {
      w->agents.field_next[f][job.next] = w->agents.field[f][job.next];
    }
  }
  fbLuaHost_Leave(&r->host);
}
