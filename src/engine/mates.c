// mates.c — a rule's flock-mates as arrays it reads at table speed, refilled by C for each agent.
#include "mates.h"

#include <lauxlib.h>
#include <string.h>

#define FB_MATES_ROOM 256

static const char *const array_names[FB_MATE_ARRAYS] = {"dx", "dy", "dist", "vx", "vy", "id"};

void fbMates_Init(fbMates *m)
{
  for (int s = 0; s < FB_MAX_SPECIES; ++s) {
    for (int k = 0; k < FB_MAX_RULES; ++k) {
      m->table_ref[s][k] = LUA_NOREF;
      m->mask[s][k] = 0;
      m->length[s][k] = 0;
      for (int a = 0; a < FB_MATE_ARRAYS; ++a) {
        m->array_ref[s][k][a] = LUA_NOREF;
      }
    }
  }
}

// Array a of the table on top of the stack: entry e of `list` for each flock-mate, then nil over
// what the last agent left beyond them.
static void fill_array(lua_State *L, const fbRuleContext *c, int a, const fbNeighbourList *list, int first, int n,
                       int stale)
{
  const fbAgents *agents = &c->world->agents;
  for (int k = 0; k < n; ++k) {
    int e = first + k, j = list->index[e];
    switch (a) {
    case 0: lua_pushnumber(L, list->dx[e]); break;
    case 1: lua_pushnumber(L, list->dy[e]); break;
    case 2: lua_pushnumber(L, list->dist[e]); break;
    case 3: lua_pushnumber(L, agents->vx[j]); break;
    case 4: lua_pushnumber(L, agents->vy[j]); break;
    default: lua_pushinteger(L, agents->id[j]); break;
    }
    lua_rawseti(L, -2, k + 1);
  }
  for (int k = n; k < stale; ++k) {
    lua_pushnil(L);
    lua_rawseti(L, -2, k + 1);
  }
}

// Whether `name` is one of the ';'-separated names.
static bool mentions(const char *names, const char *name)
{
  size_t len = strlen(name);
  for (const char *p = names; (p = strstr(p, name)) != NULL; p += len) {
    if ((p == names || p[-1] == ';') && (p[len] == ';' || p[len] == '\0')) {
      return true;
    }
  }
  return false;
}

void fbMates_Prime(fbMates *m, int s, int k, const char *names)
{
  for (int a = 0; mentions(names, "mates") && a < FB_MATE_ARRAYS; ++a) {
    if (mentions(names, array_names[a])) {
      m->mask[s][k] |= (uint8_t)(1u << a);
    }
  }
}

// Pushes array a of rule k of species s, made (and kept in its mates table) if it is not yet:
// room for more flock-mates than most agents ever see, since an array that grows in the middle of
// a run allocates, and a steady step allocates nothing.
static void push_array(fbMates *m, lua_State *L, int s, int k, int a, int n)
{
  if (m->array_ref[s][k][a] == LUA_NOREF) {
    fbMates_Push(m, L, s, k);
    lua_createtable(L, n * 2 > FB_MATES_ROOM ? n * 2 : FB_MATES_ROOM, 0);
    lua_pushvalue(L, -1);
    m->array_ref[s][k][a] = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, array_names[a]);  // a raw set: the mates table's only metamethod is __index
    lua_remove(L, -2);
    return;
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, m->array_ref[s][k][a]);
}

void fbMates_Make(fbMates *m, lua_State *L, int s, int k)
{
  for (int a = 0; m->mask[s][k] != 0 && a < FB_MATE_ARRAYS; ++a) {
    if (((m->mask[s][k] >> a) & 1u) && m->array_ref[s][k][a] == LUA_NOREF) {
      push_array(m, L, s, k, a, 0);
      lua_pop(L, 1);
    }
  }
}

void fbMates_Fill(fbMates *m, lua_State *L, fbRuleContext *c, int s, int k)
{
  int n = c->agg->n[c->agent], first = 0;
  const fbNeighbourList *list = fbRuleApi_FlockMates(c, &first);
  for (int a = 0; a < FB_MATE_ARRAYS; ++a) {
    if ((m->mask[s][k] >> a) & 1u) {
      push_array(m, L, s, k, a, n);
      fill_array(L, c, a, list, first, n, m->length[s][k]);
      lua_pop(L, 1);
    }
  }
  m->length[s][k] = n;
}

// __index of a mates table (upvalues: the fbMates, species, rule): an array the rule had not read.
// It is made, filled for the agent at hand and kept in the table, and refilled from the next agent on.
static int l_mates_index(lua_State *L)
{
  fbMates *m = lua_touserdata(L, lua_upvalueindex(1));
  int s = (int)lua_tointeger(L, lua_upvalueindex(2)), k = (int)lua_tointeger(L, lua_upvalueindex(3));
  const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "";
  int a = 0;
  while (a < FB_MATE_ARRAYS && strcmp(array_names[a], key) != 0) {
    ++a;
  }
  fbRuleContext *c = fbRuleApi_Context(L);
  if (a == FB_MATE_ARRAYS || c->agent < 0 || c->agent >= c->world->agents.count || c->species != s) {
    lua_pushnil(L);
    return 1;
  }
  int n = c->agg->n[c->agent], first = 0;
  const fbNeighbourList *list = fbRuleApi_FlockMates(c, &first);
  lua_settop(L, 2);
  push_array(m, L, s, k, a, n > m->length[s][k] ? n : m->length[s][k]);  // kept: the next read is a plain one
  fill_array(L, c, a, list, first, n, 0);
  m->mask[s][k] |= (uint8_t)(1u << a);
  if (m->length[s][k] < n) {
    // Arrays read earlier hold this agent's flock-mates already (fbMates_Fill ran), the new one
    // too: the length they share is this agent's.
    m->length[s][k] = n;
  }
  return 1;
}

void fbMates_Push(fbMates *m, lua_State *L, int s, int k)
{
  if (m->table_ref[s][k] == LUA_NOREF) {
    lua_createtable(L, 0, FB_MATE_ARRAYS);
    lua_createtable(L, 0, 2);
    lua_pushlightuserdata(L, m);
    lua_pushinteger(L, s);
    lua_pushinteger(L, k);
    lua_pushcclosure(L, l_mates_index, 3);
    lua_setfield(L, -2, "__index");
    lua_pushliteral(L, "a rule's mates table is its own and its metatable cannot be changed");
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    m->table_ref[s][k] = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, m->table_ref[s][k]);
}
