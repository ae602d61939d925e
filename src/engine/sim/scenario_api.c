// scenario_api.c — what a scenario's functions may call: the fb functions only its state offers (the table: fb_api.c) and the agent records they hand out.
#include "scenario_api.h"

#include <lauxlib.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fb_api.h"
#include "memory.h"
#include "names.h"

// ---- the scenario's API (runs in the scenario's own state, between steps) -------------------------

static fbHooks *hooks_of(lua_State *L) { return fbLuaHost_Context(L); }
static fbWorld *world_of(lua_State *L) { return hooks_of(L)->on.world; }

static int species_arg(lua_State *L, int arg)
{
  const char *name = luaL_checkstring(L, arg);
  int s = fbWorld_FindSpecies(world_of(L), name);
  if (s < 0) {
    luaL_error(L, "unknown species '%s'", name);
  }
  return s;
}

static int rule_arg(lua_State *L, int species, int arg)
{
  const char *name = luaL_checkstring(L, arg);
  int k = fbRuleSet_Find(hooks_of(L)->on.rules, world_of(L), species, name);
  if (k < 0) {
    return luaL_error(L, "species '%s' has no rule '%s'", world_of(L)->species[species].name, name);
  }
  return k;
}

// fb.count([species]) -> number of agents (of that species)
static int s_count(lua_State *L)
{
  const fbWorld *w = world_of(L);
  if (lua_isnoneornil(L, 1)) {
    lua_pushinteger(L, w->agents.count);
    return 1;
  }
  int s = species_arg(L, 1), n = 0;
  for (int i = 0; i < w->agents.count; ++i) {
    n += w->agents.species[i] == s;
  }
  lua_pushinteger(L, n);
  return 1;
}

// fb.agent(k) -> id, species name, x, y, vx, vy, energy of the k-th agent (1..fb.count())
static int s_agent(lua_State *L)
{
  const fbWorld *w = world_of(L);
  lua_Integer k = luaL_checkinteger(L, 1);
  luaL_argcheck(L, k >= 1 && k <= w->agents.count, 1, "agent index out of range 1..fb.count()");
  int i = (int)k - 1;
  lua_pushinteger(L, w->agents.id[i]);
  lua_pushstring(L, w->species[w->agents.species[i]].name);
  lua_pushnumber(L, w->agents.px[i]);
  lua_pushnumber(L, w->agents.py[i]);
  lua_pushnumber(L, w->agents.vx[i]);
  lua_pushnumber(L, w->agents.vy[i]);
  lua_pushnumber(L, w->agents.energy[i]);
  return 7;
}

// fb.field(k, name) -> the k-th agent's value of a declared per-agent field
static int s_field(lua_State *L)
{
  const fbWorld *w = world_of(L);
  lua_Integer k = luaL_checkinteger(L, 1);
  luaL_argcheck(L, k >= 1 && k <= w->agents.count, 1, "agent index out of range 1..fb.count()");
  int f = fbWorld_FindField(w, luaL_checkstring(L, 2));
  if (f < 0) {
    return luaL_error(L, "unknown field '%s'", lua_tostring(L, 2));
  }
  lua_pushnumber(L, w->agents.field[f][k - 1]);
  return 1;
}

// Queues a spawn or removal, or raises an error naming the call once one hook call has asked for
// FB_MAX_COMMANDS of them: a loop of spawns cannot make the engine allocate without bound.
static void push_command(lua_State *L, fbCommandQueue *q, fbCommand c, const char *call)
{
  if (!fbCommands_Push(q, c)) {
    luaL_error(L, "%s: more than %d spawns and removals asked for before the next step", call, FB_MAX_COMMANDS);
  }
}

static int s_spawn(lua_State *L)
{
  fbHooks *h = hooks_of(L);
  fbCommand c = {.kind = FB_CMD_SPAWN, .by = UINT32_MAX, .species = species_arg(L, 1)};
  c.p = fbV(fbRuleApi_CheckNumber(L, 2), fbRuleApi_CheckNumber(L, 3));
  c.v = fbV(fbRuleApi_OptNumber(L, 4, 0), fbRuleApi_OptNumber(L, 5, 0));
  // Agents alive plus every spawn already queued: the world never grows past FB_MAX_AGENTS.
  if ((double)h->on.world->agents.count + h->queue.count >= FB_MAX_AGENTS) {
    return luaL_error(L, "fb.spawn: the world holds at most %d agents (%d now, %d spawns and removals queued)",
                      FB_MAX_AGENTS, h->on.world->agents.count, h->queue.count);
  }
  push_command(L, &h->queue, c, "fb.spawn");
  return 0;
}

static int s_remove(lua_State *L)
{
  fbCommand c = {.kind = FB_CMD_REMOVE, .by = UINT32_MAX, .target = fbRuleApi_CheckId(L, 1)};
  push_command(L, &hooks_of(L)->queue, c, "fb.remove");
  return 0;
}

static int s_set_weight(lua_State *L)
{
  int s = species_arg(L, 1);
  int k = rule_arg(L, s, 2);
  world_of(L)->species[s].rules[k].weight = fbRuleApi_CheckNumber(L, 3);
  return 0;
}

static int s_set_param(lua_State *L)
{
  int s = species_arg(L, 1);
  int k = rule_arg(L, s, 2);
  const char *name = luaL_checkstring(L, 3);
  double v = fbRuleApi_CheckNumber(L, 4);
  char msg[600];
  if (!fbRuleSet_SetParam(hooks_of(L)->on.rules, world_of(L), s, k, name, v, msg, sizeof msg)) {
    return luaL_error(L, "fb.set_param: %s", msg);
  }
  return 0;
}

static int s_goal(lua_State *L)
{
  fbWorld *w = world_of(L);
  size_t len = 0;
  const char *name = luaL_checklstring(L, 1, &len);
  int g = fbWorld_FindGoal(w, name);
  if (lua_gettop(L) >= 3) {
    double x = fbRuleApi_CheckNumber(L, 2), y = fbRuleApi_CheckNumber(L, 3);
    if (g < 0) {
      // A new goal's name is one a rule's string parameter can give: "a\0b" would make a goal "a".
      char why[160];
      if (len >= FB_NAME_LEN) {
        return luaL_argerror(L, 1, lua_pushfstring(L, "a goal's name is at most %d bytes", FB_NAME_LEN - 1));
      }
      luaL_argcheck(L, fbName_CheckLine(name, len, why, sizeof why), 1, why);
      luaL_argcheck(L, w->goal_count < FB_MAX_GOALS, 1, "too many goals");
      g = w->goal_count++;
      snprintf(w->goals[g].name, FB_NAME_LEN, "%s", name);
    }
    w->goals[g].p = fbV(x, y);
    return 0;
  }
  if (g < 0) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushnumber(L, w->goals[g].p.x);
  lua_pushnumber(L, w->goals[g].p.y);
  return 2;
}

// fb.route_to(name, x, y) -> cells: the route field's goal becomes the point (x, y) and the field
// is solved again at once, so the next step's rules follow the new route; returns the cells reached.
// A full march, not an incremental one: docs/steering-routes.md has its cost.
static int s_route_to(lua_State *L)
{
  fbWorld *w = world_of(L);
  const char *name = luaL_checkstring(L, 1);
  fbVec2 to = fbV(fbRuleApi_CheckNumber(L, 2), fbRuleApi_CheckNumber(L, 3));
  int k = fbFlowFields_Find(&w->flows, name);
  if (k < 0 || w->flows.items[k].route == NULL) {
    return luaL_error(L, "no route field '%s' (flow_fields.%s = { route = { ... } })", name, name);
  }
  fbRoute_MoveGoal(w->flows.items[k].route, to);
  lua_pushinteger(L, fbFlowField_Reroute(&w->flows.items[k]));
  return 1;
}

// fb.set_path_speed(name, v): the path object moves at v units/s from now on, whatever its speed
// table says; fb.set_path_speed(name, nil) hands the speed back to the table.
static int s_set_path_speed(lua_State *L)
{
  fbWorld *w = world_of(L);
  const char *name = luaL_checkstring(L, 1);
  int k = fbPaths_Find(&w->paths, name);
  if (k < 0) {
    return luaL_error(L, "unknown path '%s'", name);
  }
  double v = -1;
  if (!lua_isnoneornil(L, 2)) {
    v = fbRuleApi_CheckNumber(L, 2);
    luaL_argcheck(L, v >= 0 && v <= FB_PATH_MAX_SPEED, 2, "speed must be between 0 and 1e6 units/s");
  }
  fbPath_SetSpeed(&w->paths.items[k], v, (double)w->step * w->dt);
  return 0;
}

static int s_catches(lua_State *L)
{
  lua_pushinteger(L, (lua_Integer)*hooks_of(L)->on.catches);
  return 1;
}

// fb.set_input(x, y): the player's steering input, as the arrow keys would give it
static int s_set_input(lua_State *L)
{
  double x = fbRuleApi_CheckNumber(L, 1), y = fbRuleApi_CheckNumber(L, 2);
  fbWorld *w = world_of(L);
  if (!w->input_held) {  // the user at the arrow keys has the last word (an autopilot waits)
    w->input = fbV(fmax(-1, fmin(1, x)), fmax(-1, fmin(1, y)));
  }
  return 0;
}

// ---- agents by id, with named fields -----------------------------------------------------------------

// A hook's record of one agent (fb.agents, fb.find); its declared fields follow by name.
const fbApiField fbScenarioApi_RecordFields[] = {
    {"id", "integer", "the agent's id (from 1, never reused)", FB_COMPUTED},
    {"species", "string", "its species' name", FB_COMPUTED},
    {"x", "number", "position, world units", offsetof(fbAgents, px)},
    {"y", "number", "position, world units", offsetof(fbAgents, py)},
    {"vx", "number", "velocity, units/s", offsetof(fbAgents, vx)},
    {"vy", "number", "velocity, units/s", offsetof(fbAgents, vy)},
    {"hx", "number", "unit heading", offsetof(fbAgents, hx)},
    {"hy", "number", "unit heading", offsetof(fbAgents, hy)},
    {"speed", "number", "|v|, units/s", FB_COMPUTED},
    {"energy", "number", "energy spent so far", offsetof(fbAgents, energy)},
    {NULL, NULL, NULL, 0}};

// Sets the record's fields from agent i, then its declared fields by name, into the table on top.
// Over a table that has them already this allocates nothing: the keys exist, the values are
// numbers, and the names are the engine's own strings, which Lua's string cache finds again.
static void fill_record(lua_State *L, const fbWorld *w, int i)
{
  const fbAgents *a = &w->agents;
  for (const fbApiField *f = fbScenarioApi_RecordFields; f->name != NULL; ++f) {
    if (f->offset != FB_COMPUTED) {
      lua_pushnumber(L, (*(double *const *)((const char *)a + f->offset))[i]);
    } else if (strcmp(f->name, "id") == 0) {
      lua_pushinteger(L, a->id[i]);
    } else if (strcmp(f->name, "species") == 0) {
      lua_pushstring(L, w->species[a->species[i]].name);
    } else {
      lua_pushnumber(L, sqrt(a->vx[i] * a->vx[i] + a->vy[i] * a->vy[i]));  // speed
    }
    lua_setfield(L, -2, f->name);
  }
  for (int f = 0; f < w->field_count; ++f) {
    lua_pushnumber(L, a->field[f][i]);
    lua_setfield(L, -2, w->field_names[f]);
  }
}

// Pushes a snapshot of agent i. A new table each time: a hook may keep it.
static void push_record(lua_State *L, const fbWorld *w, int i)
{
  lua_createtable(L, 0, 10 + w->field_count);
  fill_record(L, w, i);
}

// fb.find(id) -> the agent's record, or nil when no agent has that id (removed, or never was).
static int s_find(lua_State *L)
{
  const fbWorld *w = world_of(L);
  lua_Integer id = luaL_checkinteger(L, 1);
  int i = id > 0 && id <= UINT32_MAX ? fbWorld_FindAgent(w, (uint32_t)id) : -1;
  if (i < 0) {
    lua_pushnil(L);
  } else {
    push_record(L, w, i);
  }
  return 1;
}

// The state of an fb.agents or fb.each walk: the agents in id order, made when the walk began.
typedef struct Walk {
  uint64_t step;     // the walk is for this step only: agents change between steps
  int count, next;
  int capacity;      // of index
  bool ended;        // the iterator has said there is no more: fb.each may hand the walk out again
  int index[];
} Walk;

// Sort keys: an agent's id in the high 32 bits, its index in the low, so keys order as ids do.
static int by_key(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/*
 * The indices of the agents of species s (every agent: s < 0) in id order, into index; returns
 * how many. Ids are handed out in increasing order and never reused, so they lie in 1 .. next_id
 * - 1: one pass drops each agent into the slot of its id, a second collects the slots in order,
 * O(agents + ids) with no comparison. When removals have left ids far more numerous than agents,
 * a sort (O(agents log agents)) is the cheaper way.
 */
static int in_id_order(fbHooks *h, int s, int *index)
{
  const fbWorld *w = h->on.world;
  const fbAgents *a = &w->agents;
  int count = 0;
  if ((uint64_t)w->next_id > 4u * (uint64_t)a->count + 1024u) {
    if (h->sort_key_capacity < a->count) {
      h->sort_keys = fbMemory_Grow(h->sort_keys, sizeof *h->sort_keys, (size_t)a->count);
      h->sort_key_capacity = a->count;
    }
    uint64_t *key = h->sort_keys;
    for (int i = 0; i < a->count; ++i) {
      if (s < 0 || a->species[i] == s) {
        key[count++] = (uint64_t)a->id[i] << 32 | (uint32_t)i;
      }
    }
    qsort(key, (size_t)count, sizeof *key, by_key);
    for (int k = 0; k < count; ++k) {
      index[k] = (int)(uint32_t)key[k];
    }
    return count;
  }
  if (h->id_slots < w->next_id) {
    h->id_slot = fbMemory_Grow(h->id_slot, sizeof *h->id_slot, w->next_id);
    h->id_slots = w->next_id;
  }
  int *slot = h->id_slot;  // by id: index + 1, 0 for none
  memset(slot, 0, sizeof *slot * w->next_id);
  for (int i = 0; i < a->count; ++i) {
    if (s < 0 || a->species[i] == s) {
      slot[a->id[i]] = i + 1;
    }
  }
  for (uint32_t id = 1; id < w->next_id; ++id) {
    if (slot[id] != 0) {
      index[count++] = slot[id] - 1;
    }
  }
  return count;
}

// The walk's next agent index, or -1 at its end; an error if the walk is from another step.
static int walk_advance(lua_State *L, Walk *walk)
{
  const fbWorld *w = world_of(L);
  if (walk->step != w->step) {
    luaL_error(L, "fb.agents: a walk made at step %d used at step %d (walk again each step)", (int)walk->step,
               (int)w->step);
  }
  if (walk->next >= walk->count) {
    walk->ended = true;
    return -1;
  }
  return walk->index[walk->next++];
}

static int walk_next(lua_State *L)
{
  int i = walk_advance(L, lua_touserdata(L, lua_upvalueindex(1)));
  if (i < 0) {
    return 0;
  }
  push_record(L, world_of(L), i);
  return 1;
}

// fb.each's iterator: its one record (upvalue 2), refilled with the next agent.
static int each_next(lua_State *L)
{
  int i = walk_advance(L, lua_touserdata(L, lua_upvalueindex(1)));
  if (i < 0) {
    return 0;
  }
  lua_pushvalue(L, lua_upvalueindex(2));
  fill_record(L, world_of(L), i);
  return 1;
}

static Walk *new_walk(lua_State *L, int capacity)
{
  Walk *walk = lua_newuserdatauv(L, sizeof(Walk) + sizeof(int) * (size_t)(capacity > 0 ? capacity : 1), 0);
  walk->capacity = capacity;
  return walk;
}

static void begin_walk(lua_State *L, Walk *walk, int species)
{
  fbHooks *h = hooks_of(L);
  walk->step = h->on.world->step;
  walk->next = 0;
  walk->ended = false;
  walk->count = in_id_order(h, species, walk->index);
}

// fb.agents([species]) -> an iterator over the agents (of that species), in id order, each as a
// record with named fields:  for a in fb.agents("herd") do sum = sum + a.x end
static int s_agents(lua_State *L)
{
  const fbWorld *w = world_of(L);
  int s = lua_isnoneornil(L, 1) ? -1 : species_arg(L, 1);
  begin_walk(L, new_walk(L, w->agents.count), s);
  lua_pushcclosure(L, walk_next, 1);
  return 1;
}

/*
 * fb.each([species]) -> the same walk as fb.agents, with one record refilled at each agent instead
 * of a new one: a hook that reads fields and keeps no record allocates nothing once warm. Walks
 * are kept in a pool (a registry table of iterators, at most FB_EACH_POOL) and one is reused when
 * its iterator has returned nil or it belongs to an earlier step, so nested walks each get their
 * own and a record stays valid for the rest of its loop's body; a walk abandoned half-way (the
 * first agent of fb.each("player")(), say) keeps its record until the step ends.
 */
#define FB_EACH_POOL 8

static int s_each(lua_State *L)
{
  fbHooks *h = hooks_of(L);
  const fbWorld *w = h->on.world;
  int s = lua_isnoneornil(L, 1) ? -1 : species_arg(L, 1);
  if (h->each_pool_ref == LUA_NOREF) {
    lua_createtable(L, FB_EACH_POOL, 0);
    h->each_pool_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, h->each_pool_ref);
  int pool = lua_gettop(L), slot = 0;
  lua_Integer size = (lua_Integer)lua_rawlen(L, pool);
  for (lua_Integer k = 1; k <= size; ++k) {
    lua_rawgeti(L, pool, k);
    lua_getupvalue(L, -1, 1);
    Walk *walk = lua_touserdata(L, -1);
    lua_pop(L, 1);
    // Not before its iterator said "no more": the loop's body may still hold the last record.
    bool free_walk = walk->step != w->step || walk->ended;
    if (free_walk && walk->capacity >= w->agents.count) {
      begin_walk(L, walk, s);
      return 1;  // the iterator, on top
    }
    if (free_walk && slot == 0) {
      slot = (int)k;  // too small: replaced below
    }
    lua_pop(L, 1);
  }
  // Room to grow by half: a population that rises slowly (spawns) reallocates now and then, not every step.
  begin_walk(L, new_walk(L, w->agents.count + w->agents.count / 2 + 16), s);
  lua_createtable(L, 0, 10 + w->field_count);
  lua_pushcclosure(L, each_next, 2);
  if (slot == 0 && size < FB_EACH_POOL) {
    slot = (int)size + 1;
  }
  if (slot > 0) {
    lua_pushvalue(L, -1);
    lua_rawseti(L, pool, slot);
  }
  return 1;
}

// The array of a value by name, as a record names it: x, y, vx, vy, hx, hy, energy or a declared
// field. NULL for "speed" (computed, *speed set) and for a name that is none of these.
static const double *values_named(const fbWorld *w, const char *key, bool *speed)
{
  const fbAgents *a = &w->agents;
  const struct {
    const char *name;
    const double *values;
  } keys[] = {{"x", a->px}, {"y", a->py}, {"vx", a->vx}, {"vy", a->vy},
              {"hx", a->hx}, {"hy", a->hy}, {"energy", a->energy}};
  *speed = strcmp(key, "speed") == 0;
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k) {
    if (strcmp(key, keys[k].name) == 0) {
      return keys[k].values;
    }
  }
  int f = fbWorld_FindField(w, key);
  return f >= 0 ? a->field[f] : NULL;
}

// The agents of the species named at arg (all when absent) in id order, in the hooks' buffer
// (valid until the next call); their count in *count.
static const int *agents_arg(lua_State *L, int arg, int *count)
{
  fbHooks *h = hooks_of(L);
  const fbWorld *w = h->on.world;
  int s = lua_isnoneornil(L, arg) ? -1 : species_arg(L, arg);
  if (h->ordered_capacity < w->agents.count) {
    h->ordered = fbMemory_Grow(h->ordered, sizeof *h->ordered, (size_t)w->agents.count);
    h->ordered_capacity = w->agents.count;
  }
  *count = in_id_order(h, s, h->ordered);
  return h->ordered;
}

/*
 * fb.mean(key [, species]) -> mean, n: the mean of one value (x, y, vx, vy, hx, hy, speed,
 * energy or a declared field) over the agents (of a species), and how many there are; nil, 0
 * when there are none. What a hook walking fb.agents would add up, in the same order (ids
 * ascending), so the same bits, without a record per agent:
 *   mean = (v_1 + v_2 + ... + v_n) / n.
 */
static int s_mean(lua_State *L)
{
  const fbWorld *w = world_of(L);
  const fbAgents *a = &w->agents;
  const char *key = luaL_checkstring(L, 1);
  bool speed = false;
  const double *values = values_named(w, key, &speed);
  if (values == NULL && !speed) {
    return luaL_error(L, "fb.mean: no value '%s' (x, y, vx, vy, hx, hy, speed, energy or a declared field)", key);
  }
  int n = 0;
  const int *index = agents_arg(L, 2, &n);
  double sum = 0;
  for (int k = 0; k < n; ++k) {
    int i = index[k];
    sum += speed ? sqrt(a->vx[i] * a->vx[i] + a->vy[i] * a->vy[i]) : values[i];
  }
  if (n == 0) {
    lua_pushnil(L);
  } else {
    lua_pushnumber(L, sum / n);
  }
  lua_pushinteger(L, n);
  return 2;
}

// fb.centre([species]) -> x, y, n: the mean position of the agents (of a species), as fb.mean
// sums it; nil, nil, 0 when there are none.
static int s_centre(lua_State *L)
{
  const fbAgents *a = &world_of(L)->agents;
  int n = 0;
  const int *index = agents_arg(L, 1, &n);
  double cx = 0, cy = 0;
  for (int k = 0; k < n; ++k) {
    cx += a->px[index[k]];
    cy += a->py[index[k]];
  }
  if (n == 0) {
    lua_pushnil(L);
    lua_pushnil(L);
  } else {
    lua_pushnumber(L, cx / n);
    lua_pushnumber(L, cy / n);
  }
  lua_pushinteger(L, n);
  return 3;
}

// The indices of species s's agents (every agent when s < 0) into group g; returns how many.
static int group_of(fbHooks *h, int g, int s)
{
  const fbAgents *a = &h->on.world->agents;
  if (h->group_capacity < a->count) {
    h->group[0] = fbMemory_Grow(h->group[0], sizeof *h->group[0], (size_t)a->count);
    h->group[1] = fbMemory_Grow(h->group[1], sizeof *h->group[1], (size_t)a->count);
    h->group_capacity = a->count;
  }
  int n = 0;
  for (int i = 0; i < a->count; ++i) {
    if (s < 0 || a->species[i] == s) {
      h->group[g][n++] = i;
    }
  }
  return n;
}

// fb.closest(species [, other]) -> distance, id, other_id: the closest two agents, one of each
// species (two of the one species when other is absent), as they stand now; the lowest ids win
// ties; nil when there is no such pair. A sweep in C (closest_pair.c), not a walk of every pair.
static int s_closest(lua_State *L)
{
  fbHooks *h = hooks_of(L);
  const fbWorld *w = h->on.world;
  int sa = species_arg(L, 1), sb = lua_isnoneornil(L, 2) ? sa : species_arg(L, 2);
  int na = group_of(h, 0, sa), nb = group_of(h, 1, sb);
  fbClosestPair pair = fbClosestPair_Find(&w->agents, h->group[0], na, h->group[1], nb,
                                          w->bounds == FB_BOUNDS_WRAP, w->width, w->height, &h->closest);
  if (pair.a < 0) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushnumber(L, pair.distance);
  lua_pushinteger(L, w->agents.id[pair.a]);
  lua_pushinteger(L, w->agents.id[pair.b]);
  return 3;
}

// fb.close_pairs(distance [, species [, other]]) -> how many pairs of agents are closer than
// distance: one of each species, or two of one species (of every agent without a species), each
// pair once. A sweep in C (closest_pair.c), the count a Lua loop over every pair would give.
static int s_close_pairs(lua_State *L)
{
  fbHooks *h = hooks_of(L);
  const fbWorld *w = h->on.world;
  const double distance = fbRuleApi_CheckDistance(L, 1);
  luaL_argcheck(L, distance >= 0, 1, "a distance, 0 or more (math.huge for every pair)");
  int sa = lua_isnoneornil(L, 2) ? -1 : species_arg(L, 2);
  int sb = lua_isnoneornil(L, 3) ? sa : species_arg(L, 3);
  int na = group_of(h, 0, sa), nb = group_of(h, 1, sb);
  long count = fbClosestPair_CountWithin(&w->agents, h->group[0], na, h->group[1], nb, sa == sb, distance,
                                         w->bounds == FB_BOUNDS_WRAP, w->width, w->height, &h->closest);
  lua_pushinteger(L, count);
  return 1;
}

// fb.set_goal(name, x, y): moves a goal, or makes a new one (a path object, a lamp carried about).
static int s_set_goal(lua_State *L)
{
  lua_settop(L, 3);
  fbRuleApi_CheckNumber(L, 2);
  fbRuleApi_CheckNumber(L, 3);
  return s_goal(L);
}

/*
 * fb.stop(label): ends the run after this step with an outcome, e.g. "arrived" when the herd's
 * centre is within reach of its goal, or "stuck" past a limit. The label goes into the summary
 * line and the run's metadata; the first call wins, later ones are ignored, so a run has one
 * outcome and the time it happened. Labels are short words (letters, digits, _ and -): they become
 * column values and column names in a sweep's results.
 */
static int s_stop(lua_State *L)
{
  fbHooks *h = hooks_of(L);
  size_t len = 0;
  const char *label = luaL_checklstring(L, 1, &len);
  luaL_argcheck(L, len > 0 && len < FB_NAME_LEN, 1, "an outcome label of 1 to 63 characters");
  for (size_t k = 0; k < len; ++k) {
    char c = label[k];
    bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    luaL_argcheck(L, word, 1, "an outcome label is letters, digits, _ and - only");
  }
  if (h->stop_label[0] == '\0') {
    snprintf(h->stop_label, sizeof h->stop_label, "%s", label);
    h->stop_step = h->on.world->step;
  }
  return 0;
}

// The functions of the scenario's fb that need its own state or only it may call (their entries,
// types and help: fb_api.c's table; the functions rules are offered too are written there).
static const luaL_Reg scenario_functions[] = {
    {"count", s_count},
    {"agents", s_agents},
    {"centre", s_centre},
    {"mean", s_mean},
    {"closest", s_closest},
    {"close_pairs", s_close_pairs},
    {"each", s_each},
    {"find", s_find},
    {"spawn", s_spawn},
    {"remove", s_remove},
    {"set_weight", s_set_weight},
    {"set_param", s_set_param},
    {"goal", s_goal},
    {"set_goal", s_set_goal},
    {"set_path_speed", s_set_path_speed},
    {"route_to", s_route_to},
    {"catches", s_catches},
    {"set_input", s_set_input},
    {"stop", s_stop},
    {"agent", s_agent},
    {"field", s_field},
    {NULL, NULL}};

// ---- the fb table of the scenario's state -------------------------------------------------------------

void fbScenarioApi_OpenFb(fbHooks *h)
{
  lua_State *L = h->host.L;
  lua_newtable(L);
  fbFbApi_Set(L, FB_IN_SCENARIOS, offsetof(fbHooks, on.world), scenario_functions);
  lua_setglobal(L, "fb");
}

// Sets fb.world in the state's fb and in the scenario's copy of it (its environment's).
void fbScenarioApi_SetWorld(fbHooks *h, const fbWorld *w)
{
  lua_State *L = h->host.L;
  fbRuleApi_PushWorld(L, w);
  lua_getglobal(L, "fb");
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "world");
  lua_pop(L, 1);
  int top = lua_gettop(L);
  if (lua_getfield(L, LUA_REGISTRYINDEX, FB_LAST_ENV) == LUA_TTABLE && lua_getfield(L, -1, "fb") == LUA_TTABLE) {
    lua_pushvalue(L, top);
    lua_setfield(L, -2, "world");
  }
  lua_settop(L, top - 1);
}
