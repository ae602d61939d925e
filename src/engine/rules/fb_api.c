// fb_api.c — the one table of the global fb's functions (see fb_api.h), the functions rules are offered, and setting them into a state's fb.
#include "fb_api.h"

#include <string.h>

#include "lua_host.h"
#include "rule_api.h"

/*
 * The world of the state a function runs in. Each state keeps its world's pointer in its own
 * context, a different struct in rules (fbRuleContext) and in a scenario (fbHooks): fbFbApi_Set
 * gives every function of the table the pointer's offset in that context as its one upvalue. Read
 * at each call, never kept: a scenario's state moves (fbHooks_Move) and its world is built after
 * its fb is made.
 */
static fbWorld *world_of(lua_State *L)
{
  size_t world_at = (size_t)lua_tointeger(L, lua_upvalueindex(1));
  return *(fbWorld **)((char *)fbLuaHost_Context(L) + world_at);
}

// fb.terrain(x, y) -> h, gx, gy: the height and gradient anywhere.
static int fb_terrain(lua_State *L)
{
  return fbRuleApi_PushTerrain(L, &world_of(L)->terrain, fbRuleApi_CheckNumber(L, 1), fbRuleApi_CheckNumber(L, 2));
}

// fb.path(name) -> x, y, tx, ty, speed of the path object, nil if there is no such path. Moved
// once per step before the rules run, so this only reads five numbers.
static int fb_path(lua_State *L) { return fbRuleApi_PushPath(L, world_of(L), luaL_checkstring(L, 1)); }

// fb.input() -> the player's steering input x, y in [-1, 1] (arrow keys, or the scenario's course)
static int fb_input(lua_State *L) { return fbRuleApi_PushInput(L, world_of(L)); }

// fb.time() -> step, time: the step (in a rule, the one being computed) and its time in seconds.
static int fb_time(lua_State *L)
{
  const fbWorld *w = world_of(L);
  lua_pushinteger(L, (lua_Integer)w->step);
  lua_pushnumber(L, (double)w->step * w->dt);
  return 2;
}

// fb.flow(name, x, y) -> vx, vy anywhere: at a predicted position, say.
static int fb_flow(lua_State *L)
{
  return fbRuleApi_PushFlow(L, world_of(L), luaL_checkstring(L, 1), fbRuleApi_CheckNumber(L, 2),
                            fbRuleApi_CheckNumber(L, 3));
}

// fb.region(name, x, y) -> dx, dy, dist, nx, ny, inside for any point (the offset from it).
static int fb_region(lua_State *L)
{
  return fbRuleApi_PushRegion(L, world_of(L), luaL_checkstring(L, 1),
                              fbV(fbRuleApi_CheckNumber(L, 2), fbRuleApi_CheckNumber(L, 3)));
}

// fb.goal(name) -> x, y of a goal, nil if there is none (a rule's; a scenario's may also move it).
static int fb_goal(lua_State *L)
{
  const fbWorld *w = world_of(L);
  int g = fbWorld_FindGoal(w, luaL_checkstring(L, 1));
  if (g < 0) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushnumber(L, w->goals[g].p.x);
  lua_pushnumber(L, w->goals[g].p.y);
  return 2;
}

#define RULES FB_IN_RULES
#define SCENARIOS FB_IN_SCENARIOS
#define BOTH FB_IN_BOTH

const fbFbFunction fbFbApi_Functions[] = {
    // in rules and scenarios alike
    {"terrain", BOTH, fb_terrain, "x number, y number", "h number, gx number, gy number", "height and gradient anywhere"},
    {"path", BOTH, fb_path, "name string", "x number?, y number?, tx number?, ty number?, speed number?",
     "the path object of a scenario path: its place, unit tangent and speed (units/s); nil if none"},
    {"input", BOTH, fb_input, "", "x number, y number", "the player's steering input, each in [-1, 1]"},
    {"time", BOTH, fb_time, "", "step integer, time number",
     "the step (in a rule: the one being computed) and its time in seconds"},
    {"flow", BOTH, fb_flow, "name string, x number, y number", "vx number, vy number",
     "a flow field's velocity at any point (as a:flow)"},
    {"region", BOTH, fb_region, "name string, x number, y number",
     "dx number, dy number, dist number, nx number, ny number, inside boolean",
     "where (x, y) stands in a region: offset to its nearest edge point, distance, inward normal, inside (as a:region)"},
    // goal: two entries, two meanings (fb_api.h)
    {"goal", RULES, fb_goal, "name string", "x number?, y number?", "a goal's place; nil if there is no such goal"},
    {"goal", SCENARIOS, NULL, "name string, x? number, y? number", "x number?, y number?",
     "a goal's place (nil if none); with x, y: the older spelling of fb.set_goal"},
    // in scenarios only: agents counted, walked, summed and paired; changes queued or made between steps
    {"count", SCENARIOS, NULL, "species? string", "n integer", "how many agents (of a species)"},
    {"agents", SCENARIOS, NULL, "species? string", "next fun(): fbAgentRecord?",
     "an iterator over the agents (of a species) in id order, each a record: for a in fb.agents(\"herd\") do ... end"},
    {"centre", SCENARIOS, NULL, "species? string", "x number?, y number?, n integer",
     "the mean position of the agents (of a species) and how many (nil, nil, 0 for none)"},
    {"mean", SCENARIOS, NULL, "key string, species? string", "mean number?, n integer",
     "the mean of x, y, vx, vy, hx, hy, speed, energy or a declared field over the agents (nil, 0 for none)"},
    {"closest", SCENARIOS, NULL, "species string, other? string", "distance number?, id integer?, other_id integer?",
     "the closest two agents, one of each species (two of one species without other), as they stand now; nil if none"},
    {"close_pairs", SCENARIOS, NULL, "distance number, species? string, other? string", "count integer",
     "how many pairs of agents are closer than distance: one of each species, two of one, or of all; each pair once"},
    {"each", SCENARIOS, NULL, "species? string", "next fun(): fbAgentRecord?",
     "fb.agents without a new record per agent: one record, refilled at each agent (copy what you keep); allocates "
     "nothing once warm"},
    {"find", SCENARIOS, NULL, "id integer", "record fbAgentRecord?", "one agent's record, or nil when it is gone"},
    {"spawn", SCENARIOS, NULL, "species string, x number, y number, vx? number, vy? number", NULL,
     "add an agent between steps"},
    {"remove", SCENARIOS, NULL, "id integer", NULL, "remove an agent between steps"},
    {"set_weight", SCENARIOS, NULL, "species string, rule string, weight number", NULL, "change a rule's weight"},
    {"set_param", SCENARIOS, NULL, "species string, rule string, name string, value number", NULL,
     "change a rule's parameter, checked against its range"},
    {"set_goal", SCENARIOS, NULL, "name string, x number, y number", NULL, "move a goal, or make one"},
    {"set_path_speed", SCENARIOS, NULL, "name string, speed number?", NULL,
     "the path object moves at speed units/s from now on; nil hands the speed back to its table"},
    {"route_to", SCENARIOS, NULL, "name string, x number, y number", "cells integer",
     "a route field's goal moves to (x, y) and the field is solved again now; the cells it reaches"},
    {"catches", SCENARIOS, NULL, "", "n integer", "catches so far"},
    {"set_input", SCENARIOS, NULL, "x number, y number", NULL, "the player's steering input, as the arrow keys give it"},
    {"stop", SCENARIOS, NULL, "label string", NULL,
     "end the run after this step with an outcome label (letters, digits, _ and -); the first call wins"},
    // older spellings, still working in scenarios: agents by index (1..fb.count()), the step
    {"agent", SCENARIOS, NULL, "k integer",
     "id integer, species string, x number, y number, vx number, vy number, energy number",
     "the older spelling: the k-th agent (1..fb.count(), storage order)"},
    {"field", SCENARIOS, NULL, "k integer, name string", "value number",
     "the older spelling: the k-th agent's declared field"},
    {"step", SCENARIOS, fb_time, "", "step integer, time number", "the older spelling of fb.time"},
    {NULL, 0, NULL, NULL, NULL, NULL}};

bool fbFbApi_Offers(fbFbStates state, const char *name)
{
  for (const fbFbFunction *f = fbFbApi_Functions; f->name != NULL; ++f) {
    if ((f->offered & state) && strcmp(f->name, name) == 0) {
      return true;
    }
  }
  return false;
}

static lua_CFunction own_function(const luaL_Reg *own, const char *name)
{
  for (const luaL_Reg *r = own; r != NULL && r->name != NULL; ++r) {
    if (strcmp(r->name, name) == 0) {
      return r->func;
    }
  }
  return NULL;
}

// The entry offered in `state` under `name` that the state implements itself; NULL if none.
static const fbFbFunction *own_entry(fbFbStates state, const char *name)
{
  for (const fbFbFunction *f = fbFbApi_Functions; f->name != NULL; ++f) {
    if ((f->offered & state) && f->func == NULL && strcmp(f->name, name) == 0) {
      return f;
    }
  }
  return NULL;
}

void fbFbApi_Set(lua_State *L, fbFbStates state, size_t world_at, const luaL_Reg *own)
{
  for (const luaL_Reg *r = own; r != NULL && r->name != NULL; ++r) {
    FB_ASSERT(own_entry(state, r->name) != NULL);  // every function a state brings has its entry
  }
  for (const fbFbFunction *f = fbFbApi_Functions; f->name != NULL; ++f) {
    if (!(f->offered & state)) {
      continue;
    }
    if (f->func != NULL) {
      lua_pushinteger(L, (lua_Integer)world_at);
      lua_pushcclosure(L, f->func, 1);
    } else {
      lua_CFunction func = own_function(own, f->name);
      FB_ASSERT(func != NULL);  // every entry offered here has an implementation
      lua_pushcfunction(L, func);
    }
    lua_setfield(L, -2, f->name);
  }
}

void fbFbApi_OpenRules(lua_State *L, const fbWorld *w)
{
  lua_newtable(L);
  fbFbApi_Set(L, FB_IN_RULES, offsetof(fbRuleContext, world), NULL);
  fbRuleApi_PushWorld(L, w);
  lua_setfield(L, -2, "world");
  lua_setglobal(L, "fb");
}
