// test_world.c — the Lua module flockbox.core of rule tests: tiny real worlds a test makes, steps and reads.
#include "test_world.h"

#include <lauxlib.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "world.h"

#define WORLD_META "flockbox.test.world"

typedef struct TestWorld {
  fbSim *sim;
} TestWorld;

static fbSim *check_sim(lua_State *L)
{
  TestWorld *w = luaL_checkudata(L, 1, WORLD_META);
  if (w->sim == NULL) {
    luaL_error(L, "this world was closed");
  }
  return w->sim;
}

// core.load(path, seed) -> world | nil, message. One thread: a test's worlds are tiny, and the
// results are the same on any thread count anyway.
static int l_load(lua_State *L)
{
  const char *path = luaL_checkstring(L, 1);
  lua_Integer seed = luaL_optinteger(L, 2, 1);
  fbRunOptions options;
  fbRunOptions_Default(&options);
  options.seed = (uint64_t)seed;
  options.threads = 1;
  options.headless = true;
  char err[2048];
  fbSim *sim = fbSim_NewFromFile(path, &options, err, sizeof err);
  if (sim == NULL) {
    lua_pushnil(L);
    lua_pushstring(L, err);
    return 2;
  }
  TestWorld *w = lua_newuserdatauv(L, sizeof *w, 0);
  w->sim = sim;
  luaL_setmetatable(L, WORLD_META);
  return 1;
}

// world:step([n]) -> true | false, message (a failing hook; a failing rule is world:lost()).
static int l_step(lua_State *L)
{
  fbSim *sim = check_sim(L);
  lua_Integer n = luaL_optinteger(L, 2, 1);
  for (lua_Integer k = 0; k < n; ++k) {
    if (!fbSim_Step(sim)) {
      lua_pushboolean(L, 0);
      lua_pushstring(L, fbSim_Error(sim));
      return 2;
    }
  }
  lua_pushboolean(L, 1);
  return 1;
}

// The agent's per-agent fields (every one a rule of the world declared) as { name = value }: what
// a:set wrote, seen from the step after (the world's double buffer), so a test checks a rule's memory.
static void push_fields(lua_State *L, const fbWorld *world, int i)
{
  lua_createtable(L, 0, world->field_count);
  for (int f = 0; f < world->field_count; ++f) {
    lua_pushnumber(L, world->agents.field[f][i]);
    lua_setfield(L, -2, world->field_names[f]);
  }
}

// world:agents() -> { {id, species, x, y, vx, vy, hx, hy, speed, energy, fields}, ... } in id order.
static int l_agents(lua_State *L)
{
  fbSim *sim = check_sim(L);
  const fbWorld *world = fbSim_World(sim);
  const fbAgents *a = &world->agents;
  int *order = malloc(sizeof(int) * (size_t)(a->count > 0 ? a->count : 1));
  for (int i = 0; i < a->count; ++i) {
    order[i] = i;
  }
  // Insertion sort by id: test worlds hold a handful of agents.
  for (int i = 1; i < a->count; ++i) {
    for (int j = i; j > 0 && a->id[order[j - 1]] > a->id[order[j]]; --j) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  }
  lua_createtable(L, a->count, 0);
  for (int k = 0; k < a->count; ++k) {
    int i = order[k];
    lua_createtable(L, 0, 11);
    lua_pushinteger(L, a->id[i]);
    lua_setfield(L, -2, "id");
    lua_pushstring(L, fbSim_SpeciesName(sim, a->species[i]));
    lua_setfield(L, -2, "species");
    const struct {
      const char *name;
      double value;
    } numbers[] = {
        {"x", a->px[i]},   {"y", a->py[i]},   {"vx", a->vx[i]},
        {"vy", a->vy[i]},  {"hx", a->hx[i]},  {"hy", a->hy[i]},
        {"speed", sqrt(a->vx[i] * a->vx[i] + a->vy[i] * a->vy[i])}, {"energy", a->energy[i]},
    };
    for (size_t f = 0; f < sizeof numbers / sizeof numbers[0]; ++f) {
      lua_pushnumber(L, numbers[f].value);
      lua_setfield(L, -2, numbers[f].name);
    }
    push_fields(L, world, i);
    lua_setfield(L, -2, "fields");
    lua_rawseti(L, -2, k + 1);
  }
  free(order);
  return 1;
}

// world:inspect(id): record each rule's output for that agent from the next step on.
static int l_inspect(lua_State *L)
{
  fbSim_Inspect(check_sim(L), (uint32_t)luaL_checkinteger(L, 2));
  return 0;
}

// world:output(k) -> ax, ay: rule k (1-based, in its species' list) for the inspected agent in the
// last step, before weights and limits; nil if it did not run.
static int l_output(lua_State *L)
{
  fbVec2 out;
  if (!fbSim_InspectOutput(check_sim(L), (int)luaL_checkinteger(L, 2) - 1, &out)) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushnumber(L, out.x);
  lua_pushnumber(L, out.y);
  return 2;
}

// world:allocated(id, calls) -> bytes: one step with agent id's rules run `calls` times more with
// the collector stopped (rules.c, measure_allocation); nil if they did not run for it.
static int l_allocated(lua_State *L)
{
  fbSim *sim = check_sim(L);
  lua_Integer calls = luaL_checkinteger(L, 3);
  luaL_argcheck(L, calls > 0 && calls <= 1000000, 3, "calls: 1 to 1000000");
  fbSim_Inspect(sim, (uint32_t)luaL_checkinteger(L, 2));
  fbSim_MeasureAllocation(sim, (int)calls);
  bool stepped = fbSim_Step(sim);
  double bytes = fbSim_Allocated(sim);
  fbSim_MeasureAllocation(sim, 0);
  if (!stepped) {
    return luaL_error(L, "%s", fbSim_Error(sim));
  }
  if (bytes < 0.0) {
    lua_pushnil(L);
  } else {
    lua_pushnumber(L, bytes);
  }
  return 1;
}

// world:lost() -> nil | "rule 'x' of species 'y' switched off at step 0: file:line: message", one line.
static int l_lost(lua_State *L)
{
  fbSim *sim = check_sim(L);
  char what[1024];
  if (fbSim_Lost(sim, what, sizeof what) == 0) {
    lua_pushnil(L);
    return 1;
  }
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addstring(&b, what);
  const fbWorld *world = fbSim_World(sim);
  for (int s = 0; s < world->species_count; ++s) {
    for (int k = 0; k < world->species[s].rule_count; ++k) {
      const char *err = fbSim_RuleError(sim, s, k);
      if (err != NULL && err[0] != '\0') {  // its first line: the file:line and the message
        luaL_addstring(&b, ": ");
        luaL_addlstring(&b, err, strcspn(err, "\n"));
      }
    }
  }
  luaL_pushresult(&b);
  return 1;
}

// world:input(x, y): the player's steering input from now on, as the arrow keys give it (fb.input()).
static int l_input(lua_State *L)
{
  fbSim *sim = check_sim(L);
  fbVec2 input = {luaL_checknumber(L, 2), luaL_checknumber(L, 3)};
  fbSim_SetPlayerInput(sim, input, false);
  return 0;
}

// world:set_field(id, name, value) -> true | false: a per-agent field as if the agent's rules had left
// it so, before the next step (a test's preset memory: a predator already resting, a prey fleeing).
static int l_set_field(lua_State *L)
{
  bool ok = fbSim_SetAgentField(check_sim(L), (uint32_t)luaL_checkinteger(L, 2), luaL_checkstring(L, 3),
                                luaL_checknumber(L, 4));
  lua_pushboolean(L, ok);
  return 1;
}

// world:hash() -> the run's hash as 16 hex digits (equal hashes: equal runs).
static int l_hash(lua_State *L)
{
  char hex[17];
  snprintf(hex, sizeof hex, "%016llx", (unsigned long long)fbSim_Hash(check_sim(L)));
  lua_pushstring(L, hex);
  return 1;
}

static int l_time(lua_State *L)
{
  lua_pushnumber(L, fbSim_Time(check_sim(L)));
  return 1;
}

static int l_close(lua_State *L)
{
  TestWorld *w = luaL_checkudata(L, 1, WORLD_META);
  fbSim_Delete(w->sim);
  w->sim = NULL;
  return 0;
}

// core.realpath(path) -> the absolute path, or nil: rule folders handed to a world in /tmp.
static int l_realpath(lua_State *L)
{
  char out[PATH_MAX];
  if (realpath(luaL_checkstring(L, 1), out) == NULL) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushstring(L, out);
  return 1;
}

int fbTestWorld_OpenCore(lua_State *L)
{
  static const luaL_Reg methods[] = {
      {"step", l_step},     {"agents", l_agents}, {"inspect", l_inspect}, {"output", l_output},
      {"lost", l_lost},     {"hash", l_hash},     {"time", l_time},       {"close", l_close},
      {"input", l_input},   {"set_field", l_set_field}, {"allocated", l_allocated},
      {NULL, NULL},
  };
  static const luaL_Reg functions[] = {{"load", l_load}, {"realpath", l_realpath}, {NULL, NULL}};
  luaL_newmetatable(L, WORLD_META);
  luaL_newlib(L, methods);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, l_close);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
  luaL_newlib(L, functions);
  return 1;
}
