// rule_api.c — the C functions rules call: the agent view's methods, and what fb's functions share with them (fb_api.c).
#include "rule_api.h"

#include <lauxlib.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "lua_host.h"
#include "radius_query.h"
#include "rng.h"
#include "route_cache.h"

fbRuleContext *fbRuleApi_Context(lua_State *L) { return fbLuaHost_Context(L); }

double fbRuleApi_CheckNumber(lua_State *L, int arg)
{
  double v = luaL_checknumber(L, arg);
  luaL_argcheck(L, fabs(v) <= FB_MAX_MAGNITUDE, arg, "a finite number within -1e9 .. 1e9");
  return v;
}

double fbRuleApi_OptNumber(lua_State *L, int arg, double def)
{
  return lua_isnoneornil(L, arg) ? def : fbRuleApi_CheckNumber(L, arg);
}

double fbRuleApi_CheckDistance(lua_State *L, int arg)
{
  double v = luaL_checknumber(L, arg);
  luaL_argcheck(L, !isnan(v), arg, "a number (math.huge for no limit), not NaN");
  return v;
}

uint32_t fbRuleApi_CheckId(lua_State *L, int arg)
{
  lua_Integer id = luaL_checkinteger(L, arg);
  luaL_argcheck(L, id >= 1 && id <= (lua_Integer)UINT32_MAX, arg, "an agent id is a whole number from 1 to 4294967295");
  return (uint32_t)id;
}

static fbRuleContext *ctx_of(lua_State *L) { return fbRuleApi_Context(L); }

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
  double v = lua_isboolean(L, 3) ? (double)lua_toboolean(L, 3) : fbRuleApi_CheckNumber(L, 3);  // finite
  c->world->agents.field_next[f][c->agent] = v;
  return 0;
}

// a:hold(): Parker's perched bird, "held on the ground by simply not applying the boids rules". The
// rules after this one do not run for the agent this step, forces included, and the step leaves it
// where it is with no velocity. Rules before it did run, so a holding rule is listed first.
static int l_hold(lua_State *L)
{
  ctx_of(L)->held = true;
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

int fbRuleApi_PushTerrain(lua_State *L, const fbTerrain *t, double x, double y)
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
  return fbRuleApi_PushTerrain(L, &c->world->terrain, a->px[c->agent], a->py[c->agent]);
}

static fbVec2 agent_pos(const fbRuleContext *c)
{
  return fbV(c->world->agents.px[c->agent], c->world->agents.py[c->agent]);
}

static fbVec2 agent_heading(const fbRuleContext *c)
{
  return fbV(c->world->agents.hx[c->agent], c->world->agents.hy[c->agent]);
}

/*
 * Geometric queries answer in one order: the offset from the agent to the point found (x, y, in
 * world units, y down), its distance, then what else there is (a normal, a velocity, an id).
 */

// a:nearest_obstacle(range) -> dx, dy, dist, nx, ny: the closest point of the nearest obstacle
// surface (offset, distance) and the outward normal there; nil if none is within range.
static int l_nearest_obstacle(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  double range = fbRuleApi_CheckDistance(L, 2);
  fbVec2 p = agent_pos(c);
  int index;
  double d;
  if (!fbObstacles_Nearest(&c->world->obstacles, p, range, &index, &d)) {
    lua_pushnil(L);
    return 1;
  }
  fbVec2 closest, normal;
  fbObstacles_Distance(&c->world->obstacles, index, p, &closest, &normal);
  lua_pushnumber(L, closest.x - p.x);
  lua_pushnumber(L, closest.y - p.y);
  lua_pushnumber(L, d);
  lua_pushnumber(L, normal.x);
  lua_pushnumber(L, normal.y);
  return 5;
}

// a:cast_feeler(length, pad) -> dx, dy, dist, nx, ny, cx, cy: where a feeler along the heading
// first meets an obstacle grown by pad (offset, distance along it), the normal there, and the
// offset to that obstacle's centre; nil if the feeler is clear (Bourg ch. 4).
static int l_cast_feeler(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  double length = fbRuleApi_CheckDistance(L, 2);
  double pad = (lua_isnoneornil(L, 3) ? 0.0 : fbRuleApi_CheckDistance(L, 3));
  fbVec2 p = agent_pos(c);
  fbObstacleHit hit;
  if (!fbObstacles_Raycast(&c->world->obstacles, p, agent_heading(c), length, pad, &hit)) {
    lua_pushnil(L);
    return 1;
  }
  fbVec2 centre = c->world->obstacles.items[hit.index].centre;
  lua_pushnumber(L, hit.point.x - p.x);
  lua_pushnumber(L, hit.point.y - p.y);
  lua_pushnumber(L, hit.distance);
  lua_pushnumber(L, hit.normal.x);
  lua_pushnumber(L, hit.normal.y);
  lua_pushnumber(L, centre.x - p.x);
  lua_pushnumber(L, centre.y - p.y);
  return 7;
}

// a:silhouette_edge(range, pad) -> dx, dy, dist: the point just past the nearest silhouette edge
// of the nearest obstacle ahead within range (offset), and that obstacle's distance; nil if
// nothing is in the way (Gompert 6.2).
static int l_silhouette_edge(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  double range = fbRuleApi_CheckDistance(L, 2);
  double pad = (lua_isnoneornil(L, 3) ? 0.0 : fbRuleApi_CheckDistance(L, 3));
  double comfort = lua_isnoneornil(L, 4) ? 1.0 : fbRuleApi_CheckDistance(L, 4);
  fbVec2 p = agent_pos(c), h = agent_heading(c);
  int found[64];
  int n = fbObstacles_Query(&c->world->obstacles, p, range, found, 64);
  n = n < 64 ? n : 64;
  double best = INFINITY;
  fbVec2 target = {0, 0};
  for (int k = 0; k < n; ++k) {
    fbVec2 t;
    double d = fbObstacles_Distance(&c->world->obstacles, found[k], p, NULL, NULL);
    if (d < best && fbObstacles_SilhouetteComfort(&c->world->obstacles, found[k], p, h, pad, comfort, &t)) {
      best = d;
      target = t;
    }
  }
  if (!isfinite(best)) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushnumber(L, target.x - p.x);
  lua_pushnumber(L, target.y - p.y);
  lua_pushnumber(L, best);
  return 3;
}

/*
 * a:hiding_spot(tx, ty, range, gap) -> dx, dy, dist, cx, cy: Reynolds' hide (1999, "Hide"). For
 * each obstacle whose surface lies within range of the agent, the spot is on the line from the
 * threat (at offset tx, ty from the agent) through the obstacle's centre c, just past its far side:
 *   u = (c - threat) / |c - threat|,   spot = c + (far side along u + gap) u.
 * The nearest spot to the agent wins (the lower index on a tie); answers its offset and distance
 * and the offset to that obstacle's centre, or nil when no obstacle is within range.
 */
static int l_hiding_spot(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  const fbVec2 p = agent_pos(c);
  const fbVec2 threat = fbV_Add(p, fbV(fbRuleApi_CheckNumber(L, 2), fbRuleApi_CheckNumber(L, 3)));
  const double range = fbRuleApi_CheckDistance(L, 4);
  const double gap = fbRuleApi_OptNumber(L, 5, 0.0);
  const fbObstacles *o = &c->world->obstacles;
  int found[64];
  int n = fbObstacles_Query(o, p, range, found, 64);
  n = n < 64 ? n : 64;
  double best = INFINITY;
  fbVec2 spot = {0, 0}, centre = {0, 0};
  for (int k = 0; k < n; ++k) {
    fbVec2 oc = o->items[found[k]].centre;
    fbVec2 away = fbV_Sub(oc, threat);
    double len = fbV_Length(away);
    if (len == 0.0) {
      continue;  // the threat stands on the centre: no far side
    }
    fbVec2 u = fbV_Scale(away, 1.0 / len);
    fbVec2 s = fbV_Add(oc, fbV_Scale(u, fbObstacles_FarSide(o, found[k], u) + gap));
    double d = fbV_Length(fbV_Sub(s, p));
    if (d < best) {
      best = d;
      spot = s;
      centre = oc;
    }
  }
  if (!isfinite(best)) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushnumber(L, spot.x - p.x);
  lua_pushnumber(L, spot.y - p.y);
  lua_pushnumber(L, best);
  lua_pushnumber(L, centre.x - p.x);
  lua_pushnumber(L, centre.y - p.y);
  return 5;
}

// The queries renamed when they took the common order: a message says what to write instead.
static int l_renamed(lua_State *L)
{
  return luaL_error(L, "%s", lua_tostring(L, lua_upvalueindex(1)));
}

// a:nearest_agent(species, radius) -> dx, dy, dist, vx, vy, id of the nearest agent of that
// species within radius (any direction, any distance when radius is math.huge); nil if none.
static int l_nearest_agent(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  const char *name = luaL_checkstring(L, 2);
  double radius = fbRuleApi_CheckDistance(L, 3);
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

typedef struct InFront {
  fbVec2 heading;
  double front;
  int self, count;
} InFront;

static void count_if_in_front(int index, fbVec2 d, double distance, void *user)
{
  (void)distance;
  InFront *f = user;
  double ahead = fbV_Dot(d, f->heading);
  double side = fbV_Cross(f->heading, d);  // to the right in this y-down world
  f->count += index != f->self && ahead > 0.0 && fabs(side) < f->front * ahead;
}

/*
 * a:count_in_front(radius, front [, species]) -> n: Bourg's narrow view (ch. 4, "Follow the
 * Leader"). With w the offset of another unit in the agent's own frame (w.y along the heading,
 * w.x to its side), a unit is in front when w.y > 0 and |w.x| < front * w.y (front 1: a wedge of
 * +-45 degrees), within radius. Every species counts, as in Bourg, unless one is named; with
 * skip_player true the player's species does not (Bourg's loop starts at j = 1: Units[0], the
 * player, never blocks a unit from leading).
 */
static int l_count_in_front(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  double radius = fbRuleApi_CheckDistance(L, 2);
  double front = fbRuleApi_CheckDistance(L, 3);
  uint32_t mask = UINT32_MAX;
  if (!lua_isnoneornil(L, 4)) {
    const char *name = luaL_checkstring(L, 4);
    int s = fbWorld_FindSpecies(c->world, name);
    if (s < 0) {
      return luaL_error(L, "unknown species '%s'", name);
    }
    mask = 1u << s;
  }
  if (lua_toboolean(L, 5)) {
    for (int s = 0; s < c->world->species_count; ++s) {
      mask &= c->world->species[s].player ? ~(1u << s) : UINT32_MAX;
    }
  }
  const fbAgents *a = &c->world->agents;
  InFront f = {fbV(a->hx[c->agent], a->hy[c->agent]), front, c->agent, 0};
  fbPerception_ForEach(c->perception, agent_pos(c), radius, mask, count_if_in_front, &f);
  lua_pushinteger(L, f.count);
  return 1;
}

// a:remove(id): queue the removal of an agent (a catch); applied after the step.
static int l_remove(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  fbCommand cmd = {.kind = FB_CMD_REMOVE, .target = fbRuleApi_CheckId(L, 2), .by = c->world->agents.id[c->agent]};
  if (++c->removals > FB_MAX_REMOVALS_PER_AGENT) {
    return luaL_error(L, "a:remove: more than %d removals by one agent in one step", FB_MAX_REMOVALS_PER_AGENT);
  }
  if (!fbCommands_Push(c->commands, cmd)) {  // the thread's queue is full: never grow it for ever
    return luaL_error(L, "a:remove: more than %d removals asked for in one step by this thread's agents",
                      FB_MAX_COMMANDS);
  }
  return 0;
}

int fbRuleApi_PushPath(lua_State *L, const fbWorld *w, const char *name)
{
  int k = fbPaths_Find(&w->paths, name);
  if (k < 0) {
    lua_pushnil(L);
    return 1;
  }
  const fbPath *p = &w->paths.items[k];
  lua_pushnumber(L, p->p.x);
  lua_pushnumber(L, p->p.y);
  lua_pushnumber(L, p->tangent.x);
  lua_pushnumber(L, p->tangent.y);
  lua_pushnumber(L, p->speed);
  return 5;
}

// "a, b, c" or "none": the names a scenario gave, for the message about one it did not.
static void list_names(const char *first, size_t stride, int count, char *out, size_t len)
{
  size_t used = 0;
  out[0] = '\0';
  for (int k = 0; k < count && used < len; ++k) {
    used += (size_t)snprintf(out + used, len - used, "%s%s", k ? ", " : "", first + stride * (size_t)k);
  }
  if (count == 0) {
    snprintf(out, len, "none");
  }
}

int fbRuleApi_PushFlow(lua_State *L, const fbWorld *w, const char *name, double x, double y)
{
  int k = fbFlowFields_Find(&w->flows, name);
  if (k < 0) {
    char known[512];
    list_names(w->flows.count ? w->flows.items[0].name : "", sizeof *w->flows.items, w->flows.count, known,
               sizeof known);
    return luaL_error(L, "unknown flow field '%s' (this scenario's flow_fields: %s)", name, known);
  }
  fbVec2 v = fbFlowField_Sample(&w->flows.items[k], x, y);
  lua_pushnumber(L, v.x);
  lua_pushnumber(L, v.y);
  return 2;
}

int fbRuleApi_PushRegion(lua_State *L, const fbWorld *w, const char *name, fbVec2 p)
{
  int k = fbRegions_Find(&w->regions, name);
  if (k < 0) {
    char known[512];
    list_names(w->regions.count ? w->regions.items[0].name : "", sizeof *w->regions.items, w->regions.count, known,
               sizeof known);
    return luaL_error(L, "unknown region '%s' (this scenario's regions: %s)", name, known);
  }
  fbRegionQuery q = fbRegion_Query(&w->regions.items[k], p);
  lua_pushnumber(L, q.closest.x - p.x);
  lua_pushnumber(L, q.closest.y - p.y);
  lua_pushnumber(L, q.distance);
  lua_pushnumber(L, q.normal.x);
  lua_pushnumber(L, q.normal.y);
  lua_pushboolean(L, q.inside);
  return 6;
}

// a:flow(name) -> vx, vy: the flow field's velocity where the agent is (Reynolds 1999).
static int l_agent_flow(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  fbVec2 p = agent_pos(c);
  return fbRuleApi_PushFlow(L, c->world, luaL_checkstring(L, 2), p.x, p.y);
}

// a:region(name) -> dx, dy, dist, nx, ny, inside: where the agent stands in a region (containment).
static int l_agent_region(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  return fbRuleApi_PushRegion(L, c->world, luaL_checkstring(L, 2), agent_pos(c));
}

// a:route(x, y) -> dx, dy, dist, n: the offset to the next waypoint of a path round the obstacles
// to (x, y), the path's length left and its waypoints left; nil when there is none (route_cache.h).
static int l_route(lua_State *L)
{
  fbRuleContext *c = ctx_of(L);
  fbVec2 goal = fbV(fbRuleApi_CheckNumber(L, 2), fbRuleApi_CheckNumber(L, 3));
  fbRouteStep step;
  if (!fbRoutes_Next(fbRoutes_OfState(L), c->world, c->agent, goal, &step)) {
    lua_pushnil(L);
    return 1;
  }
  fbVec2 p = agent_pos(c);
  lua_pushnumber(L, step.next.x - p.x);
  lua_pushnumber(L, step.next.y - p.y);
  lua_pushnumber(L, step.remaining);
  lua_pushinteger(L, step.waypoints);
  return 4;
}

// fb.world() -> width, height, wraps: the older spelling of the fields of fb.world (arg 1).
static int l_world_call(lua_State *L)
{
  lua_getfield(L, 1, "width");
  lua_getfield(L, 1, "height");
  lua_getfield(L, 1, "wraps");
  return 3;
}

int fbRuleApi_PushInput(lua_State *L, const fbWorld *w)
{
  lua_pushnumber(L, w->input.x);
  lua_pushnumber(L, w->input.y);
  return 2;
}

// Numbers an agent's queries return, in the common order (offset, distance, then the rest).
#define AGENT_FOUND "dx number?, dy number?, dist number?, vx number?, vy number?, id integer?"

const fbApiFunction fbRuleApi_ViewMethods[] = {
    {"neighbour", l_neighbour, "k integer", "dx number, dy number, dist number, vx number, vy number, id integer",
     "the k-th perceived flock-mate, k = 1..a.n (storage order, nearest not first)"},
    {"neighbour_field", l_neighbour_field, "k integer, name string", "value number",
     "a declared field of the k-th perceived flock-mate"},
    {"get", l_get, "name string", "value number", "a declared field, as a.name reads it"},
    {"set", l_set, "name string, value number|boolean", NULL, "write a declared field's value for the next step"},
    {"random", l_random, "stream? integer", "u number",
     "a uniform number in [0, 1) from (seed, id, step, stream): the same on any thread count"},
    {"hold", l_hold, "", NULL,
     "hold the agent still this step (Parker's perching): the rules after this one do not run for it"},
    {"terrain", l_agent_terrain, "", "h number, gx number, gy number", "height and gradient under the agent"},
    {"nearest_agent", l_nearest_agent, "species string, radius number", AGENT_FOUND,
     "the nearest agent of a species within radius, all round (math.huge: anywhere); nil if none"},
    {"nearest", l_nearest_agent, "species string, radius number", AGENT_FOUND,
     "the older name of a:nearest_agent: the same results"},
    {"nearest_obstacle", l_nearest_obstacle, "range number",
     "dx number?, dy number?, dist number?, nx number?, ny number?",
     "offset to the closest obstacle surface point, its distance, the outward normal there; nil if none in range"},
    {"count_in_front", l_count_in_front, "radius number, front number, species? string, skip_player? boolean",
     "n integer",
     "how many other agents within radius are ahead and at most front times as far to the side (Bourg's narrow view)"},
    {"cast_feeler", l_cast_feeler, "length number, pad? number",
     "dx number?, dy number?, dist number?, nx number?, ny number?, cx number?, cy number?",
     "where a feeler along the heading meets an obstacle grown by pad, the normal there, the offset to its centre; "
     "nil if clear (Bourg)"},
    {"silhouette_edge", l_silhouette_edge, "range number, pad? number, comfort? number", "dx number?, dy number?, dist number?",
     "offset to the point just past the nearest silhouette edge of the obstacle ahead, and its distance; nil if "
     "none (Gompert 6.2; comfort: a tree beyond two radii seen that many times as wide, his 1.3)"},
    {"hiding_spot", l_hiding_spot, "tx number, ty number, range number, gap? number",
     "dx number?, dy number?, dist number?, cx number?, cy number?",
     "Reynolds' hiding spot from a threat at offset (tx, ty), behind the obstacle in range nearest the agent; nil "
     "if none"},
    {"remove", l_remove, "id integer", NULL, "remove an agent after the step (a catch; counted once)"},
    {"flow", l_agent_flow, "name string", "vx number, vy number",
     "the scenario's flow field where the agent is (Reynolds 1999)"},
    {"region", l_agent_region, "name string", "dx number, dy number, dist number, nx number, ny number, inside boolean",
     "where the agent stands in a region: offset to its nearest edge point, distance, inward normal, inside"},
    {"route", l_route, "x number, y number", "dx number?, dy number?, dist number?, n integer?",
     "offset to the next waypoint of a shortest path round the obstacles to (x, y) (A* on a grid, pulled taut), the "
     "path's length left, its waypoints left; nil if unreachable"},
    {NULL, NULL, NULL, NULL, NULL}};

static const struct {
  const char *name, *message;
} renamed[] = {
    {"obstacle", "a:obstacle(range) is now a:nearest_obstacle(range), returning dx, dy, dist, nx, ny "
                 "(the offset to the closest surface point first, as every query)"},
    {"feeler", "a:feeler(length, pad) is now a:cast_feeler(length, pad), returning dx, dy, dist, nx, ny, cx, cy "
               "(offsets to the hit point and to the obstacle's centre)"},
    {"silhouette", "a:silhouette(range, pad) is now a:silhouette_edge(range, pad), returning dx, dy, dist "
                   "(the offset to the point past the edge, not its position)"},
};

void fbApi_SetFunctions(lua_State *L, const fbApiFunction *list)
{
  for (const fbApiFunction *f = list; f->name != NULL; ++f) {
    lua_pushcfunction(L, f->func);
    lua_setfield(L, -2, f->name);
  }
}

void fbRuleApi_SetMethods(lua_State *L)
{
  fbApi_SetFunctions(L, fbRuleApi_ViewMethods);
  for (size_t k = 0; k < sizeof renamed / sizeof renamed[0]; ++k) {
    lua_pushstring(L, renamed[k].message);
    lua_pushcclosure(L, l_renamed, 1);
    lua_setfield(L, -2, renamed[k].name);
  }
}

const fbApiField fbRuleApi_WorldFields[] = {
    {"width", "number", "world units", offsetof(fbWorld, width)},
    {"height", "number", "world units", offsetof(fbWorld, height)},
    {"wraps", "boolean", "true when the world wraps round (bounds = \"wrap\")", FB_COMPUTED},
    {"dt", "number", "seconds per step", offsetof(fbWorld, dt)},
    {NULL, NULL, NULL, 0}};

void fbRuleApi_PushWorld(lua_State *L, const fbWorld *w)
{
  lua_createtable(L, 0, 4);
  for (const fbApiField *f = fbRuleApi_WorldFields; f->name != NULL; ++f) {
    if (f->offset == FB_COMPUTED) {
      lua_pushboolean(L, w->bounds == FB_BOUNDS_WRAP);  // wraps, the one field not stored as such
    } else {
      lua_pushnumber(L, *(const double *)((const char *)w + f->offset));
    }
    lua_setfield(L, -2, f->name);
  }
  lua_createtable(L, 0, 2);  // fb.world() as before: width, height, wraps
  lua_pushcfunction(L, l_world_call);
  lua_setfield(L, -2, "__call");
  lua_pushliteral(L, "fb.world is shared and cannot be changed");
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, -2);
}

double fbRuleApi_NearestNow(fbRuleContext *c)
{
  c->wants_nearest |= 1u << c->world->agents.species[c->agent];
  seen_now(c);
  return c->seen_nearest;
}
