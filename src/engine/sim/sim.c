// sim.c — a running scenario: made from its description, the fixed step on worker threads, and the ways into its rules.
#define _POSIX_C_SOURCE 200809L
#include "sim_internal.h"

#include <lauxlib.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "build.h"
#include "log.h"
#include "overrides.h"
#include "scenario.h"
#include "scenario_api.h"
#include "schema.h"
#include "spawn.h"

void fbRunOptions_Default(fbRunOptions *o)
{
  memset(o, 0, sizeof *o);
  o->seed = 1;
  o->threads = 0;
  o->lua_memory = (size_t)256 << 20;
  o->lua_timeout_ms = 2000;
}

static double now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// ---- making one -----------------------------------------------------------------------------------

// What the scenario's fb.* functions act on: this sim's world, rules and catches.
static fbHookTarget hook_target(fbSim *sim) { return (fbHookTarget){&sim->world, &sim->rules, &sim->catches}; }

// Everything but the Lua states: an empty world with the run's seed.
static bool begin(fbSim *sim, const fbRunOptions *o, const char *path, char *err, size_t errlen)
{
  memset(sim, 0, sizeof *sim);
  sim->options = *o;
  // Results are the same on any number of threads, so by default every core works.
  sim->threads = o->threads < 1 ? fbWorkers_Cores() : (o->threads > FB_MAX_THREADS ? FB_MAX_THREADS : o->threads);
  snprintf(sim->path, sizeof sim->path, "%s", path);
  fbWorld_Init(&sim->world);
  sim->world.seed = o->seed;
  fbGrid_Init(&sim->grid);
  if (!fbHooks_Open(&sim->hooks, hook_target(sim), o->lua_memory, o->lua_timeout_ms, o->seed)) {
    snprintf(err, errlen, "cannot create a Lua state");
    return false;
  }
  fbScenarioApi_OpenFb(&sim->hooks);
  return true;
}

// ORCA's guarantee holds only if the integrator moves an agent by the velocity ORCA chose: a
// species whose settings get in the way is named at load, with what to change (orca_stage.h).
static void warn_orca(const fbWorld *w, const char *path)
{
  for (int s = 0; s < w->species_count; ++s) {
    char why[256];
    if (!fbOrcaStage_Check(w, s, why, sizeof why)) {
      fbLog(FB_LOG_WARNING, "%s: species '%s': orca: %s", path[0] ? path : "(world built in C)", w->species[s].name,
            why);
    }
  }
}

// The world, then every rule into every state, then the agents. `previous`: the rules of the run a
// scenario reload replaces (NULL otherwise), whose last good versions stand in for broken files.
static bool build(fbSim *sim, fbScenarioDef *d, const fbRuleSet *previous, char *err, size_t errlen)
{
  fbWorld *w = &sim->world;
  if (!fbBuild_World(w, d, err, errlen) ||
      !fbRuleSet_Open(&sim->rules, sim->threads, sim->options.lua_memory, sim->options.lua_timeout_ms, w, d->path,
                      (const char(*)[512])d->rule_dirs, d->rule_dir_count, err, errlen)) {
    return false;
  }
  sim->rules.previous = previous;
  fbRuleSet_Bind(&sim->rules, w, &sim->perception, &sim->agg, sim->lists, sim->queues);
  for (int s = 0; s < w->species_count; ++s) {
    if (!fbRuleSet_SetSpecies(&sim->rules, w, s, err, errlen)) {
      return false;
    }
    for (int k = 0; k < d->species[s].rule_count; ++k) {
      char where[640];
      snprintf(where, sizeof where, "%s: species[%d].rules[%d]", d->path[0] ? d->path : "(world built in C)", s + 1,
               k + 1);
      if (!fbRuleSet_Load(&sim->rules, w, s, k, &d->species[s].rules[k], where, err, errlen)) {
        return false;
      }
    }
  }
  fbRuleSet_PrimeViews(&sim->rules, w);
  sim->species_defs = calloc(FB_MAX_SPECIES, sizeof *sim->species_defs);
  FB_ASSERT(sim->species_defs != NULL);
  memcpy(sim->species_defs, d->species, sizeof *d->species * (size_t)d->species_count);
  for (int k = 0; k < d->placed_count; ++k) {
    sim->placed[d->placed[k].species]++;
  }
  fbScenarioApi_SetWorld(&sim->hooks, w);
  if (!sim->options.no_spawn) {
    fbSpawn_All(w, d);
  }
  warn_orca(w, d->path);
  fbWorkers_Start(&sim->workers, sim->threads);
  snprintf(sim->name, sizeof sim->name, "%s", d->name);
  snprintf(sim->description, sizeof sim->description, "%s", d->description);
  memcpy(sim->view, d->view, sizeof sim->view);
  if (sim->description[0] == '\0' && d->path[0] != '\0') {
    fbScenario_HeaderComment(d->path, sim->description, sizeof sim->description);
  }
  if (sim->name[0] == '\0') {
    const char *slash = strrchr(sim->path, '/');
    snprintf(sim->name, sizeof sim->name, "%.127s", slash ? slash + 1 : (sim->path[0] ? sim->path : "world"));
  }
  return true;
}

bool fbSim_Create(fbSim *sim, fbScenarioDef *d, const fbRunOptions *options, char *err, size_t errlen)
{
  bool ok = begin(sim, options, d->path, err, errlen) && build(sim, d, NULL, err, errlen);
  if (!ok) {
    fbSim_Free(sim);
  }
  return ok;
}

static bool load(fbSim *sim, const char *path, const fbRunOptions *options, const fbRuleSet *previous, char *err,
                 size_t errlen)
{
  fbScenarioDef *d = fbScenarioDef_New();
  bool ok = begin(sim, options, path, err, errlen) && fbLuaHost_RunFile(&sim->hooks.host, path, err, errlen);
  if (ok) {
    lua_State *L = sim->hooks.host.L;
    int root = lua_gettop(L);
    ok = fbScenario_Read(L, root, path, d, err, errlen) &&
         fbOverrides_Apply(d, options->sets, options->set_count, err, errlen) && build(sim, d, previous, err, errlen) &&
         fbHooks_Read(&sim->hooks, root, path, err, errlen);
    lua_settop(L, root - 1);
  }
  fbScenarioDef_Delete(d);
  if (!ok) {
    fbSim_Free(sim);
  }
  sim->rules.previous = NULL;
  return ok;
}

bool fbSim_Load(fbSim *sim, const char *path, const fbRunOptions *options, char *err, size_t errlen)
{
  return load(sim, path, options, NULL, err, errlen);
}

bool fbSim_LoadReplacing(fbSim *fresh, const fbSim *running, const fbRunOptions *options, char *err, size_t errlen)
{
  return load(fresh, running->path, options, &running->rules, err, errlen);
}

void fbSim_Free(fbSim *sim)
{
  fbWorkers_Stop(&sim->workers);
  fbRuleSet_Close(&sim->rules);
  for (int t = 0; t < FB_MAX_THREADS; ++t) {
    fbNeighbourList_Free(&sim->lists[t]);
    fbCommands_Free(&sim->queues[t]);
  }
  fbHooks_Close(&sim->hooks);
  fbNeighbourList_Free(&sim->seen);
  fbBodies_Free(&sim->bodies);
  fbAggregates_Free(&sim->agg);
  fbGrid_Free(&sim->grid);
  fbSpeciesIndex_Free(&sim->members);
  fbWorld_Free(&sim->world);
  free(sim->species_defs);
  sim->species_defs = NULL;
  sim->threads = 0;
}

// ---- the step -----------------------------------------------------------------------------------

typedef struct Phase {
  fbSim *sim;
  void (*work)(fbSim *sim, int thread, int begin, int end);
} Phase;

// Contiguous ranges: worker t owns agents [t*n/T, (t+1)*n/T).
static void range_of(const fbSim *sim, int t, int *begin, int *end)
{
  int64_t n = sim->world.agents.count;
  *begin = (int)(n * t / sim->threads);
  *end = (int)(n * (t + 1) / sim->threads);
}

static void phase_job(void *context, int t)
{
  Phase *p = context;
  int begin, end;
  range_of(p->sim, t, &begin, &end);
  // A worker's CPU time is its jobs; the calling thread (0) is timed over its whole step instead.
  bool timed = p->sim->profile.on && t > 0;
  double started = timed ? fbProfile_Now() : 0.0;
  p->work(p->sim, t, begin, end);
  if (timed) {
    p->sim->profile.threads[t].busy_ns += fbProfile_Now() - started - p->sim->profile.clock_ns;
  }
}

// Runs work over all agents split across the sim's threads; the calling thread takes range 0.
static void run_parallel(fbSim *sim, void (*work)(fbSim *, int, int, int))
{
  Phase p = {sim, work};
  fbWorkers_Run(&sim->workers, phase_job, &p);
}

static void perceive_and_steer(fbSim *sim, int t, int begin, int end)
{
  sim->queues[t].count = 0;
  double started = sim->profile.on ? fbProfile_Now() : 0.0;
  fbPerceive(&sim->perception, begin, end, &sim->agg, &sim->lists[t]);
  if (sim->profile.on) {
    sim->profile.threads[t].perception_ns += fbProfile_Now() - started - sim->profile.clock_ns;
    sim->profile.threads[t].reads += 2;
  }
  fbRuleSet_Run(&sim->rules, t, begin, end);
}

// Also notes the farthest any agent of the range moved: how far the bodies may now be from where
// the grid has them (bodies.h).
static void integrate_range(fbSim *sim, int t, int begin, int end)
{
  fbWorld *w = &sim->world;
  fbAgents *a = &w->agents;
  fbIntegrateEnv env = fbIntegrate_Env(&w->terrain, &w->obstacles, w->dt, w->width, w->height, w->bounds);
  env.update = w->update;
  double travel = 0.0;
  for (int i = begin; i < end; ++i) {
    if (!a->active[i]) {
      continue;
    }
    a->carried_dx[i] = a->dx[i];  // what Gompert's form adds to next step's drag (rules.c, run_agent)
    a->carried_dy[i] = a->dy[i];
    if (a->held[i]) {  // held still by a rule (a:hold()): it stays put, at rest, facing the same way
      a->vx[i] = a->vy[i] = 0.0;
      continue;
    }
    fbBody b = {fbV(a->px[i], a->py[i]), fbV(a->vx[i], a->vy[i]), fbV(a->hx[i], a->hy[i]), a->energy[i], 0.0};
    fbIntegrate_Body(&b, fbV(a->ax[i], a->ay[i]), fbV(a->fx[i], a->fy[i]), fbV(a->dx[i], a->dy[i]),
                     &w->species[a->species[i]].limits, &env);
    travel = b.moved > travel ? b.moved : travel;
    a->px[i] = b.p.x;
    a->py[i] = b.p.y;
    a->vx[i] = b.v.x;
    a->vy[i] = b.v.y;
    a->hx[i] = b.heading.x;
    a->hy[i] = b.heading.y;
    a->energy[i] = b.energy;
  }
  sim->travel[t] = travel;
}

static void avoid_collisions(fbSim *sim, int t, int begin, int end)
{
  (void)t;
  fbOrcaStage_Run(&sim->orca, begin, end);
}

static void resolve_bodies(fbSim *sim, int t, int begin, int end)
{
  sim->touching[t] = fbBodies_Resolve(&sim->bodies, begin, end, &sim->travel[t]);
}

static void commit_bodies(fbSim *sim, int t, int begin, int end)
{
  (void)t;
  fbBodies_Commit(&sim->bodies, begin, end);
}

// The farthest any worker's agents moved in the last phase: a maximum, the same on any thread count.
static double farthest(const fbSim *sim)
{
  double d = 0.0;
  for (int t = 0; t < sim->threads; ++t) {
    d = fmax(d, sim->travel[t]);
  }
  return d;
}

/*
 * Gompert 8.1 after integration: up to world.collision_iterations passes, each reading the
 * positions the last one left (all ranges resolve before any commits). The grid stays this
 * step's, searched that much farther as the bodies have moved since it was built (bodies.c);
 * a pass that finds no overlap ends the loop, as the next one would find the same.
 */
static void separate_bodies(fbSim *sim)
{
  double reach = farthest(sim);
  for (int k = 0; k < sim->world.collision_iterations; ++k) {
    fbBodies_Begin(&sim->bodies, &sim->world, &sim->grid, sim->solid, reach);
    run_parallel(sim, resolve_bodies);
    int touching = 0;
    for (int t = 0; t < sim->threads; ++t) {
      touching += sim->touching[t];
    }
    if (touching == 0) {
      break;
    }
    run_parallel(sim, commit_bodies);
    reach += farthest(sim);
  }
}

/*
 * Cells half the largest vision radius wide: an agent's block is then 5 x 5 cells, 6.25 r^2 of
 * candidates instead of the 9 r^2 of a 3 x 3 block of radius-wide cells, and with agents stored
 * in cell order each of its 5 rows is still one run of memory.
 */
#define FB_CELLS_PER_RADIUS 2.0

void fbSim_UpdateGrid(fbSim *sim)
{
  fbWorld *w = &sim->world;
  fbAgents *a = &w->agents;
  double radius = 0.0;
  for (int s = 0; s < w->species_count; ++s) {
    sim->vision[s] = w->species[s].vision;
    sim->vision[s].list = (sim->keep_list >> s) & 1u;
    sim->vision[s].nearest = (sim->keep_nearest >> s) & 1u;
    radius = fmax(radius, sim->vision[s].radius);
  }
  radius = fmax(radius, fbOrcaStage_Reach(w));  // ORCA's queries reach its distance: cells of half that
  double cell = fmax(1e-3, radius / FB_CELLS_PER_RADIUS);
  fbGrid_Build(&sim->grid, a->px, a->py, a->id, a->count, w->width, w->height, cell, w->bounds == FB_BOUNDS_WRAP);
  if (!sim->grid.identity) {
    fbWorld_Reorder(w, sim->grid.order);
  }
  fbAggregates_Reserve(&sim->agg, a->count);
  // With one species a search for it is a search for everyone: the grid is always the better walk.
  if (w->species_count > 1) {
    fbSpeciesIndex_Build(&sim->members, a->species, a->count, w->species_count);
  }
  // Every agent is active here: removals compact the arrays as soon as they are applied.
  sim->perception = (fbPerceptionInput){.px = a->px,
                                        .py = a->py,
                                        .vx = a->vx,
                                        .vy = a->vy,
                                        .hx = a->hx,
                                        .hy = a->hy,
                                        .id = a->id,
                                        .species = a->species,
                                        .active = NULL,
                                        .count = a->count,
                                        .species_count = w->species_count,
                                        .vision = sim->vision,
                                        .grid = &sim->grid,
                                        .members = w->species_count > 1 ? &sim->members : NULL,
                                        .seed = w->seed,
                                        .step = w->step};
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

// Path objects move once per step, on this thread, after the agents: the rules of the next step
// (and the hook, just after this) see them where they are at its time, step * dt.
static void move_path_objects(fbWorld *w)
{
  fbPaths_Advance(&w->paths, (double)(w->step - 1) * w->dt, (double)w->step * w->dt);
}

// The spawns and removals a hook call queued, applied if it returned and dropped if it failed, as
// a failing rule's are (rules.c, undo_agent): a call that did not finish leaves no half of its work
// behind. A respawn loop stopped by the time limit had queued 9 775 spawns on one spot, which made
// each following step take seconds (found by fuzz_scenario). What its fb.set_* calls changed stays.
static void finish_hook_call(fbSim *sim, bool ok)
{
  if (!ok) {
    sim->hooks.queue.count = 0;
  }
  apply_commands(sim, &sim->hooks.queue, 1);
}

// A failing on_step stops the run, unless it was started with --keep-going: then the hook is
// switched off, noted (the run reports itself incomplete) and the run goes on without it.
static bool run_hook(fbSim *sim)
{
  bool ok = fbHooks_Step(&sim->hooks, sim->world.step, sim->error, sizeof sim->error);
  finish_hook_call(sim, ok);
  if (!ok && sim->options.keep_going) {
    fbLog(FB_LOG_ERROR, "%s", sim->error);
    fbLog(FB_LOG_WARNING, "on_step switched off (--keep-going)");
    fbHooks_SwitchOffStep(&sim->hooks, sim->world.step);
    ok = true;
  }
  return ok;
}

bool fbSim_Step(fbSim *sim)
{
  double cpu_started = sim->profile.on ? fbProfile_Now() : 0.0;
  double t0 = now_ms();
  fbSim_UpdateGrid(sim);
  // The inspected agent's index is looked up once the agents are sorted: indices move when they do.
  sim->inspect_index = sim->inspect_id ? fbWorld_FindAgent(&sim->world, sim->inspect_id) : -1;
  fbRuleSet_Inspect(&sim->rules, sim->inspect_index);
  fbRuleSet_Profile(&sim->rules, &sim->profile);  // each step: a reload may have brought new runners
  fbRuleSet_CaptureFrames(&sim->rules, sim->capture_frames);
  double t1 = now_ms();
  run_parallel(sim, perceive_and_steer);
  int begin[FB_MAX_THREADS], end[FB_MAX_THREADS];
  for (int t = 0; t < sim->threads; ++t) {
    range_of(sim, t, &begin[t], &end[t]);
  }
  fbRuleSet_Finish(&sim->rules, &sim->world, begin, end);
  fbRuleSet_TakeWants(&sim->rules, &sim->keep_list, &sim->keep_nearest);
  sim->orca = fbOrcaStage_Begin(&sim->world, &sim->perception, sim->inspect_index, &sim->orca_plan, &sim->orca_planned);
  if (sim->orca.reciprocal != 0) {
    run_parallel(sim, avoid_collisions);
  }
  sim->orca_plan_id = sim->orca_planned ? sim->inspect_id : 0;
  double t2 = now_ms();
  sim->solid = fbBodies_Solid(&sim->world);
  run_parallel(sim, integrate_range);
  double t3 = now_ms();
  if (sim->solid) {
    separate_bodies(sim);
  }
  double t4 = now_ms();
  fbWorld_SwapFields(&sim->world);
  sim->world.step++;
  move_path_objects(&sim->world);
  apply_commands(sim, sim->queues, sim->threads);
  double t5 = now_ms();
  bool ok = run_hook(sim);
  double t6 = now_ms();
  sim->cost = (fbStepCost){t1 - t0, t2 - t1, (t3 - t2) + (t5 - t4), t4 - t3, t6 - t5, t6 - t0};
  if (sim->profile.on) {
    sim->profile.threads[0].busy_ns += fbProfile_Now() - cpu_started - sim->profile.clock_ns;
    sim->profile.steps++;
  }
  return ok;
}

int fbSim_Seen(fbSim *sim, int i)
{
  sim->seen_id = sim->world.agents.id[i];
  return fbPerceive_One(&sim->perception, i, &sim->seen, NULL);
}

void fbSim_Inspect(fbSim *sim, uint32_t id)
{
  sim->inspect_id = id;
  fbRuleSet_ForgetInspect(&sim->rules);
}

void fbSim_Trace(fbSim *sim, void (*fn)(const char *text, void *ud), void *ud) { fbRuleSet_Trace(&sim->rules, fn, ud); }

const fbOrcaPlan *fbSim_OrcaPlan(const fbSim *sim, uint32_t id)
{
  return id != 0 && id == sim->orca_plan_id ? &sim->orca_plan : NULL;
}

bool fbSim_InspectOutput(const fbSim *sim, int rule, fbVec2 *out)
{
  return fbRuleSet_InspectOutput(&sim->rules, rule, out);
}

void fbSim_MeasureAllocation(fbSim *sim, int calls) { fbRuleSet_MeasureAllocation(&sim->rules, calls); }

double fbSim_Allocated(const fbSim *sim) { return fbRuleSet_Allocated(&sim->rules); }

bool fbSim_Key(fbSim *sim, const char *name)
{
  bool ok = fbHooks_Key(&sim->hooks, name, sim->error, sizeof sim->error);
  finish_hook_call(sim, ok);
  return ok;
}

void fbSim_CaptureFrames(fbSim *sim, bool on) { sim->capture_frames = on; }

const fbRuleFrame *fbSim_FailedFrame(const fbSim *sim)
{
  return sim->capture_frames ? fbRuleSet_FailedFrame(&sim->rules) : NULL;
}

bool fbSim_RunInScenario(fbSim *sim, const char *about, fbProtectedFn fn, void *ud, char *err, size_t errlen)
{
  bool ok = fbLuaHost_Protect(&sim->hooks.host, about, fn, ud, err, errlen);
  finish_hook_call(sim, ok);
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

/*
 * Each agent's record (id, position, velocity) is hashed on its own and the hashes are summed, so
 * the result does not depend on the order agents are stored in (spatial, and re-sorted whenever
 * something asks for the grid).
 */
int fbSim_Lost(const fbSim *sim, char *what, size_t len)
{
  int rules = sim->rules.switched_off, hooks = sim->hooks.failures;
  const char *first = rules > 0 ? sim->rules.first_off : sim->hooks.first_failure;
  snprintf(what, len, "%s%s", rules + hooks > 0 ? first : "", rules + hooks > 1 ? " (and others)" : "");
  return rules + hooks;
}

const char *fbSim_Outcome(const fbSim *sim, double *time)
{
  if (sim->hooks.stop_label[0] == '\0') {
    return NULL;
  }
  *time = (double)sim->hooks.stop_step * sim->world.dt;
  return sim->hooks.stop_label;
}

uint64_t fbSim_Hash(const fbSim *sim)
{
  const fbAgents *a = &sim->world.agents;
  uint64_t sum = 0;
  for (int i = 0; i < a->count; ++i) {
    double v[4] = {a->px[i], a->py[i], a->vx[i], a->vy[i]};
    uint64_t h = fnv1a(0xcbf29ce484222325ULL, &a->id[i], sizeof a->id[i]);
    sum += fnv1a(h, v, sizeof v);
  }
  return sum;
}

bool fbSim_Metrics(fbSim *sim, double *values)
{
  int failures = sim->hooks.failures;
  bool ok = fbHooks_Metrics(&sim->hooks, sim->path, values, sim->options.keep_going, sim->world.step, sim->error,
                            sizeof sim->error);
  if (sim->hooks.failures > failures) {
    fbLog(FB_LOG_ERROR, "%s", sim->error);
    fbLog(FB_LOG_WARNING, "metric switched off (--keep-going): NaN from now on");
  }
  return ok;
}

// ---- the rules, for the panel, hooks and hot reload ---------------------------------------------

/*
 * flockbox.h's "indices and errors": a species or rule index handed to the API is the caller's
 * value, checked before it reaches an array (FindRule's -1 for a name it does not know used to
 * become SetWeight's index). False with the reason in msg, naming the function.
 */
static bool rule_exists(const fbSim *sim, const char *function, int s, int k, char *msg, size_t len)
{
  if (s < 0 || s >= sim->world.species_count) {
    snprintf(msg, len, "%s: no species %d (the sim has %d, from 0)", function, s, sim->world.species_count);
    return false;
  }
  const fbSpecies *sp = &sim->world.species[s];
  if (k < 0 || k >= sp->rule_count) {
    snprintf(msg, len, "%s: species '%s' has no rule %d (it has %d, from 0; fbSim_FindRule gives -1 for a name it "
             "does not know)", function, sp->name, k, sp->rule_count);
    return false;
  }
  return true;
}

int fbSim_FindRule(const fbSim *sim, int s, const char *name)
{
  if (s < 0 || s >= sim->world.species_count || name == NULL) {
    return -1;
  }
  return fbRuleSet_Find(&sim->rules, &sim->world, s, name);
}

const char *fbSim_RuleName(const fbSim *sim, int s, int k) { return fbRuleDef_Name(&sim->rules.info[s][k].def); }

const char *fbSim_RuleModule(const fbSim *sim, int s, int k) { return sim->rules.info[s][k].def.module; }

const char *fbSim_RuleError(const fbSim *sim, int s, int k) { return sim->rules.info[s][k].error; }

// The weight's range and finiteness are the rule schema's, as a scenario's `weight = ...` gets them.
bool fbSim_SetWeight(fbSim *sim, int s, int k, double weight)
{
  char msg[512], why[256];
  if (!rule_exists(sim, "fbSim_SetWeight", s, k, msg, sizeof msg)) {
    fbLog(FB_LOG_ERROR, "%s", msg);
    return false;
  }
  fbRuleDef checked = fbDefaultRuleDef();
  if (!fbField_SetNumber(fbSchema_Find(&fbRuleSchema, "weight"), &checked, weight, why, sizeof why)) {
    fbLog(FB_LOG_ERROR, "fbSim_SetWeight: %s.%s.weight: %s", sim->world.species[s].name, fbSim_RuleName(sim, s, k),
          why);
    return false;
  }
  sim->world.species[s].rules[k].weight = weight;
  return true;
}

bool fbSim_SetParam(fbSim *sim, int s, int k, const char *name, double value, char *msg, size_t len)
{
  if (!rule_exists(sim, "fbSim_SetParam", s, k, msg, len)) {
    return false;
  }
  if (name == NULL) {
    snprintf(msg, len, "fbSim_SetParam: the parameter's name is NULL");
    return false;
  }
  return fbRuleSet_SetParam(&sim->rules, &sim->world, s, k, name, value, msg, len);
}

bool fbSim_SetParamValue(fbSim *sim, int s, int k, const fbParamDef *p, char *msg, size_t len)
{
  return rule_exists(sim, "fbSim_SetParamValue", s, k, msg, len) &&
         fbRuleSet_SetValue(&sim->rules, &sim->world, s, k, p, msg, len);
}

const fbSpeciesDef *fbSim_SpeciesDef(const fbSim *sim, int s) { return &sim->species_defs[s]; }

int fbSim_PlacedAgents(const fbSim *sim, int s) { return sim->placed[s]; }

const fbParamSpecs *fbSim_ParamSpecs(const fbSim *sim, int s, int k) { return &sim->rules.info[s][k].specs; }

const fbParamSpec *fbSim_ParamSpec(const fbSim *sim, int s, int k, const char *name)
{
  return fbParams_Find(&sim->rules.info[s][k].specs, name);
}

int fbSim_ListParams(const fbSim *sim, int s, int k, char names[][FB_NAME_LEN], double *values, int max)
{
  return fbRuleSet_ListParams(&sim->rules, 0, s, k, names, values, max);
}

int fbSim_ParamValues(const fbSim *sim, int s, int k, fbParamDef *values, int max)
{
  return fbRuleSet_ListValues(&sim->rules, s, k, values, max);
}

void fbSim_WriteParams(const fbSim *sim, int s, int k, FILE *out) { fbRuleSet_WriteParams(&sim->rules, s, k, out); }

bool fbSim_ReloadRule(fbSim *sim, int s, int k) { return fbRuleSet_Reload(&sim->rules, &sim->world, s, k); }

bool fbSim_ReloadAll(fbSim *sim) { return fbRuleSet_ReloadAll(&sim->rules, &sim->world); }

void fbSim_Adopt(fbSim *sim, fbSim *fresh)
{
  fbRuleSet_KeepLastGood(&fresh->rules, &fresh->world, &sim->rules, &sim->world);
  fbWorld_Adopt(&sim->world, &fresh->world);
  sim->keep_list = sim->keep_nearest = 0;  // the new rules ask again for what they read
  fbRuleSet_Swap(&sim->rules, &fresh->rules);
  fbSpeciesDef *defs = sim->species_defs;  // the species come from the new description too
  sim->species_defs = fresh->species_defs;
  fresh->species_defs = defs;
  memcpy(sim->placed, fresh->placed, sizeof sim->placed);
  fbRuleSet_Bind(&sim->rules, &sim->world, &sim->perception, &sim->agg, sim->lists, sim->queues);
  fbRuleSet_Bind(&fresh->rules, &fresh->world, &fresh->perception, &fresh->agg, fresh->lists, fresh->queues);
  if (sim->hooks.metric_count != fresh->hooks.metric_count) {
    fbLog(FB_LOG_WARNING, "the scenario's metrics changed: CSV columns no longer match the header");
  }
  fbHooks old;
  fbHooks_Move(&old, &sim->hooks, hook_target(fresh));
  fbHooks_Move(&sim->hooks, &fresh->hooks, hook_target(sim));
  fbHooks_Move(&fresh->hooks, &old, hook_target(fresh));
  // The run's history stays with the run: a hook that failed before the reload, or an outcome
  // already reached, is still part of how this run was made.
  sim->hooks.failures = fresh->hooks.failures;
  memcpy(sim->hooks.first_failure, fresh->hooks.first_failure, sizeof sim->hooks.first_failure);
  memcpy(sim->hooks.stop_label, fresh->hooks.stop_label, sizeof sim->hooks.stop_label);
  sim->hooks.stop_step = fresh->hooks.stop_step;
  memcpy(sim->name, fresh->name, sizeof sim->name);
  sim->error[0] = '\0';
  sim->reload_error[0] = '\0';
  fbSim_Inspect(sim, sim->inspect_id);
  fbProfile_Reset(&sim->profile);  // the species and rules the sums were kept by may have changed
}

bool fbSim_ReloadScenario(fbSim *sim)
{
  fbSim *fresh = calloc(1, sizeof *fresh);
  fbRunOptions o = sim->options;
  o.no_spawn = true;
  char err[4096];
  if (fresh == NULL || !fbSim_LoadReplacing(fresh, sim, &o, err, sizeof err)) {
    snprintf(sim->reload_error, sizeof sim->reload_error, "%.2000s", fresh ? err : "out of memory");
    free(fresh);
    return false;
  }
  fbSim_Adopt(sim, fresh);
  fbSim_Free(fresh);
  free(fresh);
  return true;
}

bool fbSim_SetSpecies(fbSim *sim, int s, const fbSpeciesDef *def, char *msg, size_t len)
{
  fbWorld *w = &sim->world;
  const fbSpecies *now = &w->species[s];
  fbSpecies next;
  if (!fbSpeciesDef_Build(def, w->dt, &next, now->name, msg, len)) {
    return false;
  }
  next.vision.sees = now->vision.sees;
  next.vision.list = now->vision.list;
  next.vision.nearest = now->vision.nearest;
  memcpy(next.rules, now->rules, sizeof next.rules);
  next.rule_count = now->rule_count;
  next.all_native = now->all_native;
  next.field_mask = now->field_mask;
  if (!fbRuleSet_CheckSpecies(&sim->rules, w, s, &next, msg, len)) {
    return false;
  }
  w->species[s] = next;
  sim->species_defs[s] = *def;
  return fbRuleSet_SetSpecies(&sim->rules, w, s, msg, len);
}

const char *fbSim_RulePath(const fbSim *sim, int s, int k) { return sim->rules.info[s][k].path; }

const char *fbSim_LibraryPath(const fbSim *sim) { return sim->rules.library; }

const char (*fbSim_RuleFolders(const fbSim *sim, int *count))[512]
{
  *count = sim->rules.dir_count;
  return (const char(*)[512])sim->rules.dirs;
}

fbRuleDef *fbSim_RuleDescription(fbSim *sim, int s, int k) { return &sim->rules.info[s][k].def; }

// ---- what it is, for the window, telemetry and the run's record -------------------------------

const fbWorld *fbSim_World(const fbSim *sim) { return &sim->world; }

void fbSim_Profile(fbSim *sim, bool on)
{
  if (on) {
    fbProfile_Start(&sim->profile);
  } else {
    sim->profile.on = false;
  }
}

void fbSim_ResetProfile(fbSim *sim) { fbProfile_Reset(&sim->profile); }

static const char *profile_rule_name(const void *sim, int s, int k) { return fbSim_RuleName(sim, s, k); }

int fbSim_ProfileTable(const fbSim *sim, fbProfileRow *rows, int max, long *steps)
{
  *steps = sim->profile.steps;
  return fbProfile_Table(&sim->profile, &sim->world, profile_rule_name, sim, rows, max);
}

const char *fbSim_Path(const fbSim *sim) { return sim->path; }

const char *fbSim_Name(const fbSim *sim) { return sim->name; }

const char *fbSim_Description(const fbSim *sim) { return sim->description; }

bool fbSim_View(const fbSim *sim, double *x, double *y, double *width)
{
  *x = sim->view[0];
  *y = sim->view[1];
  *width = sim->view[2];
  return sim->view[2] > 0;
}

const char *fbSim_ReloadError(const fbSim *sim) { return sim->reload_error; }

const fbRunOptions *fbSim_Options(const fbSim *sim) { return &sim->options; }

int fbSim_Threads(const fbSim *sim) { return sim->threads; }

uint64_t fbSim_Catches(const fbSim *sim) { return sim->catches; }

const fbStepCost *fbSim_Cost(const fbSim *sim) { return &sim->cost; }

int fbSim_MetricCount(const fbSim *sim) { return sim->hooks.metric_count; }

const char *fbSim_MetricName(const fbSim *sim, int k) { return sim->hooks.metric_names[k]; }

const fbNeighbourList *fbSim_SeenList(const fbSim *sim, uint32_t *id)
{
  *id = sim->seen_id;
  return &sim->seen;
}

const fbPerceptionInput *fbSim_Perception(const fbSim *sim) { return &sim->perception; }

// ---- what the window may change between steps -------------------------------------------------

void fbSim_SetPlayerInput(fbSim *sim, fbVec2 input, bool held)
{
  sim->world.input = input;
  sim->world.input_held = held;
}

bool fbSim_MoveGoal(fbSim *sim, int g, fbVec2 to)
{
  if (g < 0 || g >= sim->world.goal_count) {
    return false;
  }
  sim->world.goals[g].p = to;
  return true;
}

bool fbSim_MovePathPoint(fbSim *sim, int k, int point, fbVec2 to)
{
  fbWorld *w = &sim->world;
  return k >= 0 && k < w->paths.count && fbPath_MovePoint(&w->paths.items[k], point, to, (double)w->step * w->dt);
}

// Both buffers: the value is what the next step's rules read (field) and what it keeps unless a
// rule writes another (field_next starts the step as a copy, but is written here too for safety).
bool fbSim_SetAgentField(fbSim *sim, uint32_t id, const char *name, double value)
{
  fbWorld *w = &sim->world;
  int f = fbWorld_FindField(w, name), i = fbWorld_FindAgent(w, id);
  if (f < 0 || i < 0) {
    return false;
  }
  w->agents.field[f][i] = value;
  w->agents.field_next[f][i] = value;
  return true;
}

void fbSim_ReverseStorage(fbSim *sim) { fbWorld_ReverseStorage(&sim->world); }
