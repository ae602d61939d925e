// sim.c — the fixed step: grid, perception and rules on worker threads, integration, commands, hooks.
#define _POSIX_C_SOURCE 200809L
#include "sim.h"

#include <lauxlib.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "scenario.h"

void fbRunOptions_Default(fbRunOptions *o)
{
  memset(o, 0, sizeof *o);
  o->seed = 1;
  o->threads = 1;
  o->lua_memory = (size_t)256 << 20;
  o->lua_timeout_ms = 2000;
}

static double now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// ---- the scenario's API (runs in the scenario's own state, between steps) -------------------------

static fbSim *sim_of(lua_State *L) { return fbLuaHost_Of(L)->context; }

static int species_arg(lua_State *L, int arg)
{
  fbSim *sim = sim_of(L);
  const char *name = luaL_checkstring(L, arg);
  int s = fbWorld_FindSpecies(&sim->world, name);
  if (s < 0) {
    luaL_error(L, "unknown species '%s'", name);
  }
  return s;
}

static int rule_arg(lua_State *L, int species, int arg)
{
  fbSpecies *sp = &sim_of(L)->world.species[species];
  const char *name = luaL_checkstring(L, arg);
  for (int k = 0; k < sp->rule_count; ++k) {
    if (strcmp(sp->rules[k].name, name) == 0) {
      return k;
    }
  }
  return luaL_error(L, "species '%s' has no rule '%s'", sp->name, name);
}

// fb.count([species]) -> number of agents (of that species)
static int s_count(lua_State *L)
{
  const fbWorld *w = &sim_of(L)->world;
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
  const fbWorld *w = &sim_of(L)->world;
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
  const fbWorld *w = &sim_of(L)->world;
  lua_Integer k = luaL_checkinteger(L, 1);
  luaL_argcheck(L, k >= 1 && k <= w->agents.count, 1, "agent index out of range 1..fb.count()");
  int f = fbWorld_FindField(w, luaL_checkstring(L, 2));
  if (f < 0) {
    return luaL_error(L, "unknown field '%s'", lua_tostring(L, 2));
  }
  lua_pushnumber(L, w->agents.field[f][k - 1]);
  return 1;
}

static int s_step(lua_State *L)
{
  const fbWorld *w = &sim_of(L)->world;
  lua_pushinteger(L, (lua_Integer)w->step);
  lua_pushnumber(L, (double)w->step * w->dt);
  return 2;
}

static int s_spawn(lua_State *L)
{
  fbSim *sim = sim_of(L);
  fbCommand c = {.kind = FB_CMD_SPAWN, .by = UINT32_MAX, .species = species_arg(L, 1)};
  c.p = fbV(luaL_checknumber(L, 2), luaL_checknumber(L, 3));
  c.v = fbV(luaL_optnumber(L, 4, 0), luaL_optnumber(L, 5, 0));
  luaL_argcheck(L, isfinite(c.p.x) && isfinite(c.p.y) && isfinite(c.v.x) && isfinite(c.v.y), 2,
                "position and velocity must be finite");
  fbCommands_Push(&sim->scenario_queue, c);
  return 0;
}

static int s_remove(lua_State *L)
{
  fbCommand c = {.kind = FB_CMD_REMOVE, .by = UINT32_MAX, .target = (uint32_t)luaL_checkinteger(L, 1)};
  fbCommands_Push(&sim_of(L)->scenario_queue, c);
  return 0;
}

static int s_set_weight(lua_State *L)
{
  fbSim *sim = sim_of(L);
  int s = species_arg(L, 1);
  int k = rule_arg(L, s, 2);
  double w = luaL_checknumber(L, 3);
  luaL_argcheck(L, isfinite(w), 3, "weight must be finite");
  sim->world.species[s].rules[k].weight = w;
  return 0;
}

static int s_set_param(lua_State *L)
{
  fbSim *sim = sim_of(L);
  int s = species_arg(L, 1);
  int k = rule_arg(L, s, 2);
  const char *name = luaL_checkstring(L, 3);
  double v = luaL_checknumber(L, 4);
  luaL_argcheck(L, isfinite(v), 4, "value must be finite");
  for (int t = 0; t < sim->threads; ++t) {
    if (!fbRules_SetParam(&sim->runners[t], s, k, name, v)) {
      return luaL_error(L, "rule '%s' has no numeric parameter '%s'", sim->world.species[s].rules[k].name, name);
    }
  }
  return 0;
}

static int s_goal(lua_State *L)
{
  fbWorld *w = &sim_of(L)->world;
  const char *name = luaL_checkstring(L, 1);
  int g = fbWorld_FindGoal(w, name);
  if (lua_gettop(L) >= 3) {
    double x = luaL_checknumber(L, 2), y = luaL_checknumber(L, 3);
    luaL_argcheck(L, isfinite(x) && isfinite(y), 2, "goal position must be finite");
    if (g < 0) {
      luaL_argcheck(L, w->goal_count < FB_MAX_GOALS && strlen(name) < FB_NAME_LEN, 1, "too many goals");
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

static int s_catches(lua_State *L)
{
  lua_pushinteger(L, (lua_Integer)sim_of(L)->catches);
  return 1;
}

// fb.set_input(x, y): the player's steering input, as the arrow keys would give it
static int s_set_input(lua_State *L)
{
  double x = luaL_checknumber(L, 1), y = luaL_checknumber(L, 2);
  luaL_argcheck(L, isfinite(x) && isfinite(y), 1, "input must be finite");
  sim_of(L)->world.input = fbV(fmax(-1, fmin(1, x)), fmax(-1, fmin(1, y)));
  return 0;
}

static const luaL_Reg scenario_api[] = {{"count", s_count},           {"agent", s_agent},   {"field", s_field},
                                        {"step", s_step},             {"spawn", s_spawn},   {"remove", s_remove},
                                        {"set_weight", s_set_weight}, {"set_param", s_set_param},
                                        {"goal", s_goal},             {"catches", s_catches},
                                        {"set_input", s_set_input}, {NULL, NULL}};

// ---- loading ------------------------------------------------------------------------------------

static bool open_states(fbSim *sim, char *err, size_t errlen)
{
  const fbRunOptions *o = &sim->options;
  sim->threads = o->threads < 1 ? 1 : (o->threads > FB_MAX_THREADS ? FB_MAX_THREADS : o->threads);
  sim->runners = calloc((size_t)sim->threads, sizeof *sim->runners);
  FB_ASSERT(sim->runners != NULL);
  for (int t = 0; t < sim->threads; ++t) {
    if (!fbRules_Open(&sim->runners[t], o->lua_memory, o->lua_timeout_ms)) {
      snprintf(err, errlen, "cannot create a Lua state");
      return false;
    }
    sim->runners[t].ctx.world = &sim->world;
    sim->runners[t].ctx.perception = &sim->perception;
    sim->runners[t].ctx.agg = &sim->agg;
    sim->runners[t].ctx.list = &sim->lists[t];
    sim->runners[t].ctx.commands = &sim->queues[t];
    // math.random keeps one sequence per state, so its numbers would depend on which thread ran
    // which agent: rules get a:random(stream) instead.
    if (!fbLuaHost_RunString(&sim->runners[t].host,
                             "math.random = function() error('math.random is not available to rules: "
                             "use a:random(stream), which gives the same numbers on any thread count', 2) end "
                             "math.randomseed = function() error('math.randomseed is not available to rules', 2) end",
                             "sandbox", err, errlen)) {
      return false;
    }
    lua_pop(sim->runners[t].host.L, 1);
  }
  if (!fbLuaHost_Create(&sim->scenario, o->lua_memory, o->lua_timeout_ms)) {
    snprintf(err, errlen, "cannot create a Lua state");
    return false;
  }
  sim->scenario.context = sim;
  // The scenario's own math.random is seeded from the run's seed, so scripts may use it freely.
  lua_getglobal(sim->scenario.L, "math");
  lua_getfield(sim->scenario.L, -1, "randomseed");
  lua_pushinteger(sim->scenario.L, (lua_Integer)(o->seed & 0x7fffffffffffffffULL));
  lua_call(sim->scenario.L, 1, 0);
  lua_pop(sim->scenario.L, 1);
  luaL_newlib(sim->scenario.L, scenario_api);
  lua_setglobal(sim->scenario.L, "fb");
  return true;
}

static void set_display_name(fbSim *sim)
{
  if (sim->name[0] == '\0') {
    const char *slash = strrchr(sim->path, '/');
    snprintf(sim->name, sizeof sim->name, "%.127s", slash ? slash + 1 : sim->path);
  }
}

bool fbSim_Load(fbSim *sim, const char *path, const fbRunOptions *options, char *err, size_t errlen)
{
  memset(sim, 0, sizeof *sim);
  sim->options = *options;
  sim->on_step_ref = LUA_NOREF;
  sim->on_key_ref = LUA_NOREF;
  snprintf(sim->path, sizeof sim->path, "%s", path);
  fbWorld_Init(&sim->world);
  sim->world.seed = options->seed;
  fbGrid_Init(&sim->grid);
  bool ok = open_states(sim, err, errlen) && fbLuaHost_RunFile(&sim->scenario, path, err, errlen);
  if (ok && !lua_istable(sim->scenario.L, -1)) {
    snprintf(err, errlen, "%s: must return a table (the scenario), got %s", path, luaL_typename(sim->scenario.L, -1));
    ok = false;
  }
  ok = ok && fbScenario_ApplySets(sim->scenario.L, path, options->sets, options->set_count, err, errlen) &&
       fbScenario_Read(sim, err, errlen);
  if (ok) {
    sim->scenario_ref = luaL_ref(sim->scenario.L, LUA_REGISTRYINDEX);
    ok = options->no_spawn || fbScenario_Spawn(sim, err, errlen);
  }
  if (!ok) {
    fbSim_Free(sim);
    return false;
  }
  set_display_name(sim);
  return true;
}

void fbSim_Free(fbSim *sim)
{
  for (int t = 0; t < sim->threads && sim->runners; ++t) {
    fbRules_Close(&sim->runners[t]);
    fbNeighbourList_Free(&sim->lists[t]);
    fbCommands_Free(&sim->queues[t]);
  }
  free(sim->runners);
  sim->runners = NULL;
  fbLuaHost_Destroy(&sim->scenario);
  fbCommands_Free(&sim->scenario_queue);
  fbAggregates_Free(&sim->agg);
  fbGrid_Free(&sim->grid);
  fbWorld_Free(&sim->world);
  sim->threads = 0;
}

// The inspected agent's index is looked up before each step: indices move when agents are removed.
static void update_inspect(fbSim *sim)
{
  int i = sim->inspect_id ? fbWorld_FindAgent(&sim->world, sim->inspect_id) : -1;
  for (int t = 0; t < sim->threads; ++t) {
    sim->runners[t].inspect = i;
  }
}

// ---- the step -----------------------------------------------------------------------------------

typedef struct PhaseJob {
  fbSim *sim;
  int thread;
  void (*work)(fbSim *sim, int thread, int begin, int end);
} PhaseJob;

// Contiguous ranges: worker t owns agents [t*n/T, (t+1)*n/T).
static void range_of(const fbSim *sim, int t, int *begin, int *end)
{
  int64_t n = sim->world.agents.count;
  *begin = (int)(n * t / sim->threads);
  *end = (int)(n * (t + 1) / sim->threads);
}

static void *phase_main(void *arg)
{
  PhaseJob *job = arg;
  int begin, end;
  range_of(job->sim, job->thread, &begin, &end);
  job->work(job->sim, job->thread, begin, end);
  return NULL;
}

// Runs work over all agents split across the sim's threads; the calling thread takes range 0.
static void run_parallel(fbSim *sim, void (*work)(fbSim *, int, int, int))
{
  PhaseJob jobs[FB_MAX_THREADS];
  pthread_t handles[FB_MAX_THREADS];
  bool started[FB_MAX_THREADS] = {false};
  for (int t = 0; t < sim->threads; ++t) {
    jobs[t] = (PhaseJob){sim, t, work};
  }
  for (int t = 1; t < sim->threads; ++t) {
    started[t] = pthread_create(&handles[t], NULL, phase_main, &jobs[t]) == 0;
  }
  phase_main(&jobs[0]);
  for (int t = 1; t < sim->threads; ++t) {
    if (started[t]) {
      pthread_join(handles[t], NULL);
    } else {
      phase_main(&jobs[t]);  // could not start a thread: do its share here, same result
    }
  }
}

static void perceive_and_steer(fbSim *sim, int t, int begin, int end)
{
  sim->queues[t].count = 0;
  fbPerceive(&sim->perception, begin, end, &sim->agg, &sim->lists[t]);
  fbRules_Run(&sim->runners[t], begin, end);
}

/*
 * On one thread, a rule that fails at agent m is skipped for every agent after m in that step.
 * On several, a later worker may already have run it for its agents. So after a step with a
 * failure, each later worker runs its range again with that rule skipped from the start (in
 * worker order, so a failure found during a replay reaches the workers after it): the step then
 * ends exactly as on one thread. Only steps where a rule failed pay for this.
 */
static void replay_after_failures(fbSim *sim)
{
  bool skip[FB_MAX_SPECIES][FB_MAX_RULES];
  int first[FB_MAX_SPECIES][FB_MAX_RULES];
  for (int s = 0; s < FB_MAX_SPECIES; ++s) {
    for (int k = 0; k < FB_MAX_RULES; ++k) {
      first[s][k] = INT32_MAX;
    }
  }
  fbAgents *a = &sim->world.agents;
  for (int t = 0; t < sim->threads; ++t) {
    int begin, end;
    range_of(sim, t, &begin, &end);
    bool replay = false;
    for (int s = 0; s < FB_MAX_SPECIES; ++s) {
      for (int k = 0; k < FB_MAX_RULES; ++k) {
        skip[s][k] = first[s][k] < begin;
        replay = replay || skip[s][k];
      }
    }
    if (replay) {
      sim->queues[t].count = 0;
      for (int f = 0; f < sim->world.field_count; ++f) {
        memcpy(a->field_next[f] + begin, a->field[f] + begin, sizeof(double) * (size_t)(end - begin));
      }
      fbRules_RunSkipping(&sim->runners[t], begin, end, (const bool(*)[FB_MAX_RULES])skip);
    }
    const fbRuleRunner *r = &sim->runners[t];
    for (int q = 0; q < r->failure_count; ++q) {
      const fbRuleFailure *f = &r->failures[q];
      if (f->rule >= 0 && f->agent < first[f->species][f->rule]) {
        first[f->species][f->rule] = f->agent;
      }
    }
  }
}

static void integrate_range(fbSim *sim, int t, int begin, int end)
{
  (void)t;
  fbWorld *w = &sim->world;
  fbAgents *a = &w->agents;
  fbIntegrateEnv env = {&w->terrain, &w->obstacles, w->dt, w->width, w->height, w->bounds};
  for (int i = begin; i < end; ++i) {
    if (!a->active[i]) {
      continue;
    }
    fbBody b = {fbV(a->px[i], a->py[i]), fbV(a->vx[i], a->vy[i]), fbV(a->hx[i], a->hy[i]), a->energy[i]};
    fbIntegrate_Body(&b, fbV(a->ax[i], a->ay[i]), fbV(a->fx[i], a->fy[i]), &w->species[a->species[i]].limits, &env);
    a->px[i] = b.p.x;
    a->py[i] = b.p.y;
    a->vx[i] = b.v.x;
    a->vy[i] = b.v.y;
    a->hx[i] = b.heading.x;
    a->hy[i] = b.heading.y;
    a->energy[i] = b.energy;
  }
}

static void prepare_perception(fbSim *sim)
{
  fbWorld *w = &sim->world;
  fbAgents *a = &w->agents;
  double cell = 1e-3;
  for (int s = 0; s < w->species_count; ++s) {
    sim->vision[s] = w->species[s].vision;
    cell = fmax(cell, sim->vision[s].radius);
  }
  fbGrid_Build(&sim->grid, a->px, a->py, a->count, w->width, w->height, cell, w->bounds == FB_BOUNDS_WRAP);
  fbAggregates_Reserve(&sim->agg, a->count);
  sim->perception = (fbPerceptionInput){a->px, a->py,      a->vx, a->vy,       a->hx, a->hy, a->species,
                                        a->active, a->count, sim->vision, &sim->grid};
}

// A reloaded rule that failed goes back to its last good version in every Lua state.
static bool fall_back(fbSim *sim, int species, int rule, const char *message)
{
  fbRuleSlot *slot = &sim->world.species[species].rules[rule];
  bool ok = slot->on_trial;
  for (int t = 0; ok && t < sim->threads; ++t) {
    ok = fbRules_Fallback(&sim->runners[t], species, rule);
  }
  if (!ok) {
    return false;
  }
  slot->on_trial = false;
  char path[sizeof slot->path];
  memcpy(path, slot->path, sizeof path);
  snprintf(slot->error, sizeof slot->error, "%.1800s\n(the last good version of %.200s keeps running)", message, path);
  fprintf(stderr, "flockbox: %s: the new version failed; the last good one keeps running:\n%s\n", slot->path,
          message);
  return true;
}

// Rules reloaded before this step ran it without failing: the versions they replaced can go.
static void settle_trials(fbSim *sim)
{
  for (int s = 0; s < sim->world.species_count; ++s) {
    for (int k = 0; k < sim->world.species[s].rule_count; ++k) {
      fbRuleSlot *slot = &sim->world.species[s].rules[k];
      for (int t = 0; slot->on_trial && t < sim->threads; ++t) {
        fbRules_Settle(&sim->runners[t], s, k);
      }
      slot->on_trial = false;
    }
  }
}

/*
 * A failing rule is switched off for its species from the next step on, with one message (or,
 * freshly reloaded, goes back to its last good version). When several workers saw it fail, the
 * failure at the lowest agent index is the one reported, so the message does not depend on the
 * thread count.
 */
static void switch_off_failed_rules(fbSim *sim)
{
  for (int t = 0; t < sim->threads; ++t) {
    const fbRuleRunner *r = &sim->runners[t];
    for (int k = 0; k < r->failure_count; ++k) {
      const fbRuleFailure *f = &r->failures[k];
      fbRuleSlot *slot = &sim->world.species[f->species].rules[f->rule];
      if (!slot->disabled && fall_back(sim, f->species, f->rule, f->message)) {
        continue;
      }
      if (!slot->disabled) {
        slot->disabled = true;
        // Some errors (out of memory) carry no position: name the file so the message says where.
        const char *base = strrchr(slot->path, '/') ? strrchr(slot->path, '/') + 1 : slot->path;
        bool named = strstr(f->message, base) != NULL;
        snprintf(slot->error, sizeof slot->error, "%.500s%s%.1000s", named ? "" : slot->path, named ? "" : ": ",
                 f->message);
        fprintf(stderr, "flockbox: rule '%s' of species '%s' switched off at step %llu: %s\n", slot->name,
                sim->world.species[f->species].name, (unsigned long long)sim->world.step, slot->error);
      }
    }
  }
}

static void apply_command(fbSim *sim, const fbCommand *c)
{
  fbWorld *w = &sim->world;
  if (c->kind == FB_CMD_SPAWN) {
    if (c->species >= 0 && c->species < w->species_count) {
      fbWorld_AddAgent(w, c->species, c->p, c->v);
    }
    return;
  }
  int i = fbWorld_FindAgent(w, c->target);
  if (i >= 0 && w->agents.active[i]) {
    w->agents.active[i] = 0;
    if (c->by != UINT32_MAX) {
      sim->catches++;  // only the first request counts: the agent is no longer active for the rest
    }
  }
}

// Commands apply in worker order, which is agent order, so the outcome is the same on any thread count.
static void apply_commands(fbSim *sim, fbCommandQueue *queues, int count)
{
  bool any = false;
  for (int q = 0; q < count; ++q) {
    for (int k = 0; k < queues[q].count; ++k) {
      apply_command(sim, &queues[q].items[k]);
      any = true;
    }
    queues[q].count = 0;
  }
  if (any) {
    fbWorld_Compact(&sim->world);
  }
}

static bool run_hook(fbSim *sim)
{
  if (sim->on_step_ref == LUA_NOREF) {
    return true;
  }
  lua_State *L = sim->scenario.L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, sim->on_step_ref);
  lua_pushinteger(L, (lua_Integer)sim->world.step);
  bool ok = fbLuaHost_Call(&sim->scenario, 1, 0, sim->error, sizeof sim->error);
  apply_commands(sim, &sim->scenario_queue, 1);
  return ok;
}

bool fbSim_Step(fbSim *sim)
{
  double t0 = now_ms();
  update_inspect(sim);
  prepare_perception(sim);
  double t1 = now_ms();
  run_parallel(sim, perceive_and_steer);
  bool failed = false;
  for (int t = 0; t < sim->threads; ++t) {
    failed = failed || sim->runners[t].failure_count > 0;
  }
  if (failed && sim->threads > 1) {
    replay_after_failures(sim);
  }
  switch_off_failed_rules(sim);
  settle_trials(sim);
  double t2 = now_ms();
  run_parallel(sim, integrate_range);
  fbWorld_SwapFields(&sim->world);
  sim->world.step++;
  apply_commands(sim, sim->queues, sim->threads);
  double t3 = now_ms();
  bool ok = run_hook(sim);
  double t4 = now_ms();
  sim->cost = (fbStepCost){t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0};
  return ok;
}

void fbSim_Inspect(fbSim *sim, uint32_t id)
{
  sim->inspect_id = id;
  for (int t = 0; t < sim->threads; ++t) {
    sim->runners[t].inspect = -1;
    memset(sim->runners[t].inspect_ran, 0, sizeof sim->runners[t].inspect_ran);
  }
}

bool fbSim_InspectOutput(const fbSim *sim, int rule, fbVec2 *out)
{
  for (int t = 0; t < sim->threads; ++t) {
    const fbRuleRunner *r = &sim->runners[t];
    if (r->inspect >= 0 && rule >= 0 && rule < FB_MAX_RULES && r->inspect_ran[rule]) {
      *out = r->inspect_out[rule];
      return true;
    }
  }
  return false;
}

bool fbSim_Key(fbSim *sim, const char *name)
{
  if (sim->on_key_ref == LUA_NOREF) {
    return true;
  }
  lua_State *L = sim->scenario.L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, sim->on_key_ref);
  lua_pushstring(L, name);
  bool ok = fbLuaHost_Call(&sim->scenario, 1, 0, sim->error, sizeof sim->error);
  apply_commands(sim, &sim->scenario_queue, 1);
  return ok;
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
  const unsigned char *p = data;
  for (size_t k = 0; k < len; ++k) {
    h = (h ^ p[k]) * 0x100000001b3ULL;
  }
  return h;
}

uint64_t fbSim_Hash(const fbSim *sim)
{
  const fbAgents *a = &sim->world.agents;
  uint64_t h = 0xcbf29ce484222325ULL;
  for (int i = 0; i < a->count; ++i) {
    double v[4] = {a->px[i], a->py[i], a->vx[i], a->vy[i]};
    h = fnv1a(h, &a->id[i], sizeof a->id[i]);
    h = fnv1a(h, v, sizeof v);
  }
  return h;
}

bool fbSim_Metrics(fbSim *sim, double *values)
{
  lua_State *L = sim->scenario.L;
  for (int m = 0; m < sim->metric_count; ++m) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, sim->metric_refs[m]);
    char err[1536];
    if (!fbLuaHost_Call(&sim->scenario, 0, 1, err, sizeof err)) {
      snprintf(sim->error, sizeof sim->error, "metric '%s': %s", sim->metric_names[m], err);
      return false;
    }
    int isnum = 0;
    values[m] = lua_tonumberx(L, -1, &isnum);
    lua_pop(L, 1);
    if (!isnum) {
      snprintf(sim->error, sizeof sim->error, "%s: metric '%s' returned a non-number", sim->path, sim->metric_names[m]);
      return false;
    }
  }
  return true;
}
