// reload.c — hot reload: a saved rule module or scenario takes effect on the next step, agents kept.
#define _GNU_SOURCE
#include "reload.h"

#include <lauxlib.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * What a reload keeps and what it changes.
 * - A rule module: every Lua state loads the new file; its params are again its defaults under the
 *   scenario's overrides (so new defaults apply where the scenario set nothing). Until the new
 *   version has run one step cleanly the old one is kept, and a failure goes back to it. Agents,
 *   their fields, the step counter and the random streams are untouched.
 * - The scenario: the script runs again into a complete new world description with fresh Lua
 *   states (a bad save changes nothing). Then its world size, terrain, obstacles, goals, species
 *   parameters and rule lists replace the running ones, while the agents stay where they are with
 *   their ids, velocities, energy and fields (matched by name; new fields start at their
 *   defaults). Agents of a species the script no longer has are removed; a new species gets its
 *   agents on restart (R), since spawning runs only then. Hooks and metrics start from the new
 *   script's state.
 */

static bool same_file(const char *a, const char *b)
{
  char ra[PATH_MAX], rb[PATH_MAX];
  return realpath(a, ra) != NULL && realpath(b, rb) != NULL && strcmp(ra, rb) == 0;
}

// Pushes the scenario's params table for rule k of species s (or nothing: returns 0).
static int push_overrides(fbSim *sim, int s, int k)
{
  lua_State *L = sim->scenario.L;
  int top = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, sim->scenario_ref);
  lua_getfield(L, -1, "species");
  lua_rawgeti(L, -1, s + 1);
  lua_getfield(L, -1, "rules");
  lua_rawgeti(L, -1, k + 1);  // read_rules made every entry a table
  if (lua_getfield(L, -1, "params") != LUA_TTABLE) {
    lua_settop(L, top);
    return 0;
  }
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
  return top + 1;
}

static bool reload_rule(fbSim *sim, int s, int k)
{
  fbSpecies *sp = &sim->world.species[s];
  fbRuleSlot *slot = &sp->rules[k];
  if (access(slot->path, R_OK) != 0) {
    char path[sizeof slot->path];
    memcpy(path, slot->path, sizeof path);
    snprintf(slot->error, sizeof slot->error, "%.500s: the file is gone; its last version keeps running", path);
    fprintf(stderr, "flockbox: %s\n", slot->error);
    return false;
  }
  int overrides = push_overrides(sim, s, k);
  char what[768], err[2048];
  snprintf(what, sizeof what, "%s: species '%s' rule '%s'", sim->path, sp->name, slot->name);
  int loaded = 0;
  bool ok = true;
  for (; ok && loaded < sim->threads; ++loaded) {
    ok = fbRules_Reload(&sim->runners[loaded], &sim->world, s, k, sim->scenario.L, overrides, what, err, sizeof err);
  }
  if (overrides) {
    lua_pop(sim->scenario.L, 1);
  }
  if (!ok) {
    for (int t = 0; t < loaded - 1; ++t) {
      fbRules_Fallback(&sim->runners[t], s, k);  // the states that took it give it back
    }
    snprintf(slot->error, sizeof slot->error, "%.2000s", err);
    fprintf(stderr, "flockbox: reload failed, the last good version keeps running: %s\n", err);
    return false;
  }
  slot->disabled = false;
  slot->on_trial = true;
  slot->error[0] = '\0';
  fprintf(stderr, "flockbox: reloaded %s (species '%s' rule '%s') at step %llu\n", slot->path, sp->name, slot->name,
          (unsigned long long)sim->world.step);
  return true;
}

// ---- scenario reload ----------------------------------------------------------------------------

// Rebuilds the agents' field arrays in the order of `fresh` fields, carrying values over by name.
static void adopt_fields(fbWorld *old, const fbWorld *fresh)
{
  fbAgents *a = &old->agents;
  double *cur[FB_MAX_FIELDS], *next[FB_MAX_FIELDS];
  bool taken[FB_MAX_FIELDS] = {false};
  int capacity = a->capacity > 0 ? a->capacity : 1;
  for (int f = 0; f < fresh->field_count; ++f) {
    int g = fbWorld_FindField(old, fresh->field_names[f]);
    if (g >= 0) {
      cur[f] = a->field[g];
      next[f] = a->field_next[g];
      taken[g] = true;
      continue;
    }
    cur[f] = malloc(sizeof(double) * (size_t)capacity);
    next[f] = malloc(sizeof(double) * (size_t)capacity);
    FB_ASSERT(cur[f] != NULL && next[f] != NULL);
    for (int i = 0; i < a->count; ++i) {
      cur[f][i] = next[f][i] = fresh->field_defaults[f];
    }
  }
  for (int g = 0; g < old->field_count; ++g) {
    if (!taken[g]) {
      free(a->field[g]);
      free(a->field_next[g]);
    }
  }
  for (int f = 0; f < fresh->field_count; ++f) {
    a->field[f] = cur[f];
    a->field_next[f] = next[f];
    snprintf(old->field_names[f], FB_NAME_LEN, "%s", fresh->field_names[f]);
    old->field_defaults[f] = fresh->field_defaults[f];
  }
  old->field_count = fresh->field_count;
}

// Agents follow their species by name; those whose species is gone are removed.
static void remap_species(fbWorld *old, const fbWorld *fresh)
{
  int map[FB_MAX_SPECIES];
  for (int s = 0; s < old->species_count; ++s) {
    map[s] = fbWorld_FindSpecies(fresh, old->species[s].name);
    if (map[s] < 0) {
      fprintf(stderr, "flockbox: species '%s' is no longer in the scenario: its agents are removed\n",
              old->species[s].name);
    }
  }
  fbAgents *a = &old->agents;
  for (int i = 0; i < a->count; ++i) {
    int s = map[a->species[i]];
    a->active[i] = s >= 0;
    a->species[i] = (uint8_t)(s >= 0 ? s : 0);
  }
  fbWorld_Compact(old);
}

// Everything the scenario declares moves from fresh into old; old's agents stay.
static void adopt_world(fbWorld *old, fbWorld *fresh)
{
  remap_species(old, fresh);
  adopt_fields(old, fresh);
  old->width = fresh->width;
  old->height = fresh->height;
  old->dt = fresh->dt;
  old->bounds = fresh->bounds;
  fbTerrain_Free(&old->terrain);
  old->terrain = fresh->terrain;
  fbTerrain_InitFlat(&fresh->terrain, fresh->width, fresh->height);
  fbObstacles_Free(&old->obstacles);
  old->obstacles = fresh->obstacles;
  fbObstacles_Init(&fresh->obstacles);
  memcpy(old->species, fresh->species, sizeof old->species);
  old->species_count = fresh->species_count;
  memcpy(old->goals, fresh->goals, sizeof old->goals);
  old->goal_count = fresh->goal_count;
  memcpy(old->rule_dirs, fresh->rule_dirs, sizeof old->rule_dirs);
  old->rule_dir_count = fresh->rule_dir_count;
}

// The fresh Lua states (rules, scenario) replace the old ones, which are then closed.
static void adopt_states(fbSim *sim, fbSim *fresh)
{
  fbRuleRunner *old_runners = sim->runners;
  sim->runners = fresh->runners;
  fresh->runners = old_runners;
  for (int t = 0; t < sim->threads; ++t) {
    fbRuleContext *c = &sim->runners[t].ctx;
    c->world = &sim->world;
    c->perception = &sim->perception;
    c->agg = &sim->agg;
    c->list = &sim->lists[t];
    c->commands = &sim->queues[t];
  }
  fbLuaHost old_scenario;
  fbLuaHost_Move(&old_scenario, &sim->scenario);
  fbLuaHost_Move(&sim->scenario, &fresh->scenario);
  fbLuaHost_Move(&fresh->scenario, &old_scenario);
  sim->scenario.context = sim;
  fresh->scenario.context = fresh;
  sim->scenario_ref = fresh->scenario_ref;
  sim->on_step_ref = fresh->on_step_ref;
  sim->on_key_ref = fresh->on_key_ref;
  if (sim->metric_count != fresh->metric_count) {
    fprintf(stderr, "flockbox: the scenario's metrics changed: CSV columns no longer match the header\n");
  }
  memcpy(sim->metric_refs, fresh->metric_refs, sizeof sim->metric_refs);
  memcpy(sim->metric_names, fresh->metric_names, sizeof sim->metric_names);
  sim->metric_count = fresh->metric_count;
  memcpy(sim->name, fresh->name, sizeof sim->name);
  sim->error[0] = '\0';
  sim->reload_error[0] = '\0';
}

static bool reload_scenario(fbSim *sim)
{
  static fbSim fresh;  // large: off the stack
  fbRunOptions o = sim->options;
  o.no_spawn = true;
  char err[4096];
  if (!fbSim_Load(&fresh, sim->path, &o, err, sizeof err)) {
    snprintf(sim->reload_error, sizeof sim->reload_error, "%.2000s", err);
    fprintf(stderr, "flockbox: scenario reload failed, the last good version keeps running: %s\n", err);
    return false;
  }
  adopt_world(&sim->world, &fresh.world);
  adopt_states(sim, &fresh);
  fbSim_Free(&fresh);
  fbSim_Inspect(sim, sim->inspect_id);
  fprintf(stderr, "flockbox: reloaded scenario %s at step %llu (%d agents kept)\n", sim->path,
          (unsigned long long)sim->world.step, sim->world.agents.count);
  return true;
}

bool fbHotReload_Apply(fbSim *sim, const char *path)
{
  if (same_file(path, sim->path)) {
    return reload_scenario(sim);
  }
  bool any = false, ok = true;
  for (int s = 0; s < sim->world.species_count; ++s) {
    for (int k = 0; k < sim->world.species[s].rule_count; ++k) {
      const char *slot_path = sim->world.species[s].rules[k].path;
      // A deleted file no longer resolves: compare names then, to warn that its last version stays.
      bool match = same_file(path, slot_path) ||
                   (access(path, F_OK) != 0 && strcmp(strrchr(path, '/') ? strrchr(path, '/') : path,
                                                      strrchr(slot_path, '/') ? strrchr(slot_path, '/') : slot_path) == 0);
      if (match) {
        any = true;
        ok = reload_rule(sim, s, k) && ok;
      }
    }
  }
  return any && ok;
}

// ---- watching -----------------------------------------------------------------------------------

// Watches the folder a file lives in.
static void watch_folder_of(fbWatch *w, const char *path)
{
  char dir[512];
  const char *slash = strrchr(path, '/');
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
  fbWatch_AddDir(w, dir);
}

// Watches the folders a sim's files live in: the scenario's, the rule folders it names, each
// rule's. Called again after a scenario reload, which may name new ones (folders already watched
// are skipped, and reopening the watch would be slow: closing an inotify descriptor waits for
// the kernel's grace period).
static void watch_sim_folders(fbWatch *w, const fbSim *sim)
{
  watch_folder_of(w, sim->path);
  for (int d = 0; d < sim->world.rule_dir_count; ++d) {
    fbWatch_AddDir(w, sim->world.rule_dirs[d]);
  }
  for (int s = 0; s < sim->world.species_count; ++s) {
    for (int k = 0; k < sim->world.species[s].rule_count; ++k) {
      watch_folder_of(w, sim->world.species[s].rules[k].path);
    }
  }
}

bool fbHotReload_Open(fbHotReload *h, const fbSim *sim, bool polling, char *err, size_t errlen)
{
  memset(h, 0, sizeof *h);
  h->polling = polling;
  fbWatch_Open(&h->watch, polling);
  watch_sim_folders(&h->watch, sim);
  if (h->watch.dir_count == 0) {
    snprintf(err, errlen, "--watch: none of the scenario's folders exists");
    fbWatch_Close(&h->watch);
    return false;
  }
  return true;
}

void fbHotReload_Close(fbHotReload *h) { fbWatch_Close(&h->watch); }

int fbHotReload_Poll(fbHotReload *h, fbSim *sim, double now_ms)
{
  char changed[16][512];
  int n = fbWatch_Poll(&h->watch, now_ms, changed, 16);
  int applied = 0;
  bool scenario = false;
  for (int k = 0; k < n; ++k) {
    bool is_scenario = same_file(changed[k], sim->path);
    scenario = scenario || is_scenario;
    if (fbHotReload_Apply(sim, changed[k])) {
      applied++;
      h->reloads++;
      h->scenario_reloads += is_scenario;
      h->last_ms = now_ms;
    }
  }
  if (scenario) {
    watch_sim_folders(&h->watch, sim);
  }
  return applied;
}
