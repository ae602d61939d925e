// agent_view.c — per-rule agent views, filled each agent by a generated Lua function, and their lazy __index.
#include "agent_view.h"

#include <lauxlib.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

// Every key of the view and where its value comes from; declared per-agent fields follow these.
static const struct ViewKey {
  const char *name, *type, *help;  // the help goes into the editor's types (fbAgentViews_Key)
  fbViewSource source;
  size_t offset;  // of the array in fbAgents or fbAggregates
} view_keys[] = {
    {"x", "number", "position, world units", FB_FROM_AGENTS, offsetof(fbAgents, px)},
    {"y", "number", "position, world units", FB_FROM_AGENTS, offsetof(fbAgents, py)},
    {"vx", "number", "velocity, units/s", FB_FROM_AGENTS, offsetof(fbAgents, vx)},
    {"vy", "number", "velocity, units/s", FB_FROM_AGENTS, offsetof(fbAgents, vy)},
    {"hx", "number",
     "unit heading (kept when the agent stops); its right side is (-hy, hx)", FB_FROM_AGENTS, offsetof(fbAgents, hx)},
    {"hy", "number", "unit heading (kept when the agent stops)", FB_FROM_AGENTS, offsetof(fbAgents, hy)},
    {"cx", "number",
     "the perceived flock-mates' centre; its own position when n == 0", FB_FROM_AGGREGATES, offsetof(fbAggregates, cx)},
    {"cy", "number",
     "the perceived flock-mates' centre; its own position when n == 0", FB_FROM_AGGREGATES, offsetof(fbAggregates, cy)},
    {"avx", "number",
     "the perceived flock-mates' mean velocity; 0 when n == 0", FB_FROM_AGGREGATES, offsetof(fbAggregates, avx)},
    {"avy", "number",
     "the perceived flock-mates' mean velocity; 0 when n == 0", FB_FROM_AGGREGATES, offsetof(fbAggregates, avy)},
    {"sx", "number",
     "Parker's separation sum: own minus their position over those nearer than the separation radius", FB_FROM_AGGREGATES, offsetof(fbAggregates, sx)},
    {"sy", "number",
     "Parker's separation sum: own minus their position over those nearer than the separation radius", FB_FROM_AGGREGATES, offsetof(fbAggregates, sy)},
    {"nearest_dist", "number",
     "distance to the nearest perceived flock-mate (math.huge if none)", FB_FROM_NEAREST, 0},
    {"energy", "number",
     "energy spent so far (Gompert's Figure 7 measure)", FB_FROM_AGENTS, offsetof(fbAgents, energy)},
    {"speed", "number", "|v|, units/s", FB_FROM_SPEED, 0},
    {"n", "integer",
     "how many flock-mates it perceives (vision radius, field of view, the species it sees)", FB_FROM_COUNT, 0},
    {"id", "integer", "the agent's id (from 1, never reused)", FB_FROM_ID, 0},
};
_Static_assert(sizeof view_keys / sizeof view_keys[0] == FB_VIEW_KEYS, "FB_VIEW_KEYS (agent_view.h) must count view_keys");

fbApiField fbAgentViews_Key(int k)
{
  return (fbApiField){view_keys[k].name, view_keys[k].type, view_keys[k].help, FB_COMPUTED};
}

static const char *key_name(const fbWorld *w, int k)
{
  return k < FB_VIEW_KEYS ? view_keys[k].name : w->field_names[k - FB_VIEW_KEYS];
}

// View key k resolved to its arrays for this step: field and aggregate arrays move between steps
// (double buffers, agents sorted in space).
static fbViewValue resolve(const fbRuleContext *c, int k)
{
  fbViewValue v = {k, FB_FROM_AGENTS, NULL};
  if (k >= FB_VIEW_KEYS) {
    v.values = c->world->agents.field[k - FB_VIEW_KEYS];
    return v;
  }
  v.source = view_keys[k].source;
  if (v.source == FB_FROM_AGENTS) {
    v.values = *(double *const *)((const char *)&c->world->agents + view_keys[k].offset);
  } else if (v.source == FB_FROM_AGGREGATES) {
    v.values = *(double *const *)((const char *)c->agg + view_keys[k].offset);
  }
  return v;
}

static inline void push_value(lua_State *L, fbRuleContext *c, const fbViewValue *v, int i)
{
  const fbAgents *a = &c->world->agents;
  switch (v->source) {
  case FB_FROM_AGENTS:
  case FB_FROM_AGGREGATES: lua_pushnumber(L, v->values[i]); break;
  case FB_FROM_SPEED: lua_pushnumber(L, sqrt(a->vx[i] * a->vx[i] + a->vy[i] * a->vy[i])); break;
  case FB_FROM_COUNT: lua_pushinteger(L, c->agg->n[i]); break;
  case FB_FROM_ID: lua_pushinteger(L, a->id[i]); break;
  case FB_FROM_NEAREST:
    lua_pushnumber(L, c->perception->vision[a->species[i]].nearest ? c->agg->nearest[i] : fbRuleApi_NearestNow(c));
    break;
  }
}

void fbAgentViews_PushValue(lua_State *L, fbRuleContext *c, int k)
{
  fbViewValue v = resolve(c, k);
  push_value(L, c, &v, c->agent);
}

static int key_index(const fbWorld *w, const char *key)
{
  for (int k = 0; k < FB_VIEW_KEYS; ++k) {
    if (strcmp(view_keys[k].name, key) == 0) {
      return k;
    }
  }
  int f = fbWorld_FindField(w, key);
  return f >= 0 ? FB_VIEW_KEYS + f : -1;
}

// __index of a view (upvalue: the fbAgentViews): a field the running rule had not read yet.
// Answer it for the current agent, and from the next agent on fill it into this rule's view.
static int l_view_index(lua_State *L)
{
  fbAgentViews *v = lua_touserdata(L, lua_upvalueindex(1));
  fbRuleContext *c = fbRuleApi_Context(L);
  const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
  int k = key != NULL ? key_index(c->world, key) : -1;
  if (k < 0 || c->agent < 0 || c->agent >= c->world->agents.count) {
    lua_pushnil(L);
    return 1;
  }
  v->mask[c->species][c->rule] |= (uint64_t)1 << k;
  fbAgentViews_PushValue(L, c, k);
  return 1;
}

void fbAgentViews_Init(fbAgentViews *v, lua_State *L)
{
  for (int s = 0; s < FB_MAX_SPECIES; ++s) {
    v->fill_ref[s] = LUA_NOREF;
    for (int k = 0; k < FB_MAX_RULES; ++k) {
      v->view_ref[s][k] = LUA_NOREF;
      v->mask[s][k] = v->filled[s][k] = 0;
    }
  }
  lua_createtable(L, 0, 2);
  lua_pushlightuserdata(L, v);
  lua_pushcclosure(L, l_view_index, 1);
  lua_setfield(L, -2, "__index");
  lua_pushliteral(L, "the agent view's metatable is shared and cannot be changed");
  lua_setfield(L, -2, "__metatable");
  v->metatable_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

void fbAgentViews_Push(fbAgentViews *v, lua_State *L, int s, int k)
{
  if (v->view_ref[s][k] == LUA_NOREF) {
    lua_createtable(L, 0, 24);
    fbRuleApi_SetMethods(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, v->metatable_ref);
    lua_setmetatable(L, -2);
    v->view_ref[s][k] = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, v->view_ref[s][k]);
}

void fbAgentViews_Prime(fbAgentViews *v, const fbWorld *w, int s, int k, const char *names)
{
  char name[FB_NAME_LEN];
  for (const char *p = names; *p;) {
    const char *end = strchr(p, ';');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
    int key = key_index(w, name);
    if (key >= 0) {
      v->mask[s][k] |= (uint64_t)1 << key;
    }
    p += n + (end != NULL);
  }
}

bool fbAgentViews_Grew(const fbAgentViews *v, int s, int rules)
{
  for (int k = 0; k < rules; ++k) {
    if (v->mask[s][k] != v->filled[s][k]) {
      return true;
    }
  }
  return false;
}

typedef struct Code {
  char *text;
  size_t len, cap;
} Code;

static void emit(Code *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void emit(Code *c, const char *fmt, ...)
{
  // Allocated before the first write: c->text + c->len on a NULL text is pointer arithmetic on
  // NULL, undefined even for a zero offset (UBSan's report under tests/fuzz).
  if (c->text == NULL) {
    c->cap = 4096;
    c->text = malloc(c->cap);
    FB_ASSERT(c->text != NULL);
  }
  for (;;) {
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(c->text + c->len, c->cap - c->len, fmt, args);
    va_end(args);
    if (n >= 0 && c->len + (size_t)n < c->cap) {
      c->len += (size_t)n;
      return;
    }
    c->cap = c->cap ? 2 * c->cap + (size_t)n : 4096;
    c->text = realloc(c->text, c->cap);
    FB_ASSERT(c->text != NULL);
  }
}

/*
 * The fill function of a species whose rules 1..R read the keys in their masks:
 *   local v1, v2, ..., vR = ...
 *   return function(a1, ..., aM)   -- the values of the M keys any of them reads
 *     v1.n = a3  v1.sx = a5  ...    -- each view gets exactly its own keys (one SETTABUP each)
 *   end
 * Key names are Lua identifiers (view keys, and declared fields, which are checked when declared).
 */
static void generate(fbAgentViews *v, lua_State *L, const fbWorld *w, int s, int rules, uint64_t all)
{
  int position[FB_VIEW_KEYS + FB_MAX_FIELDS];
  int count = 0;
  for (int k = 0; k < FB_VIEW_KEYS + FB_MAX_FIELDS; ++k) {
    position[k] = (all >> k) & 1u ? ++count : 0;
  }
  Code code = {NULL, 0, 0};
  emit(&code, "local v1");
  for (int r = 2; r <= rules; ++r) {
    emit(&code, ", v%d", r);
  }
  emit(&code, " = ...\nreturn function(");
  for (int m = 1; m <= count; ++m) {
    emit(&code, "%sa%d", m > 1 ? ", " : "", m);
  }
  emit(&code, ")\n");
  for (int r = 0; r < rules; ++r) {
    for (int k = 0; k < FB_VIEW_KEYS + FB_MAX_FIELDS; ++k) {
      if ((v->mask[s][r] >> k) & 1u) {
        emit(&code, "  v%d.%s = a%d\n", r + 1, key_name(w, k), position[k]);
      }
    }
  }
  emit(&code, "end\n");
  int status = luaL_loadbufferx(L, code.text, code.len, "=agent view fill", "t");
  free(code.text);
  FB_ASSERT(status == LUA_OK);  // generated from identifiers only
  for (int r = 0; r < rules; ++r) {
    fbAgentViews_Push(v, L, s, r);
    v->filled[s][r] = v->mask[s][r];
  }
  lua_call(L, rules, 1);
  luaL_unref(L, LUA_REGISTRYINDEX, v->fill_ref[s]);
  v->fill_ref[s] = luaL_ref(L, LUA_REGISTRYINDEX);
}

void fbAgentViews_Prepare(fbAgentViews *v, lua_State *L, const fbRuleContext *c, int s, int rules,
                          fbViewPlan *plan)
{
  uint64_t all = 0;
  for (int r = 0; r < rules; ++r) {
    all |= v->mask[s][r];
  }
  plan->count = 0;
  for (int k = 0; k < FB_VIEW_KEYS + c->world->field_count; ++k) {
    if ((all >> k) & 1u) {
      plan->value[plan->count++] = resolve(c, k);
    }
  }
  if (plan->count == 0) {
    lua_pushnil(L);
    return;
  }
  if (v->fill_ref[s] == LUA_NOREF || fbAgentViews_Grew(v, s, rules)) {
    generate(v, L, c->world, s, rules, all);
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, v->fill_ref[s]);
}

void fbAgentViews_Fill(lua_State *L, int fill, const fbViewPlan *plan, fbRuleContext *c, int i)
{
  if (plan->count == 0) {
    return;
  }
  lua_pushvalue(L, fill);
  for (int m = 0; m < plan->count; ++m) {
    push_value(L, c, &plan->value[m], i);
  }
  lua_call(L, plan->count, 0);
}
