// api.c — the public functions of flockbox.h that the engine's own files do not already provide: a sim on the heap, its agents by copy.
#include "sim_internal.h"

#include <string.h>

fbWorldDef *fbScenarioDef_World(fbScenarioDef *d) { return &d->world; }

bool fbScenarioDef_AddRuleFolder(fbScenarioDef *d, const char *folder)
{
  if (d->rule_dir_count >= FB_MAX_RULE_DIRS || strlen(folder) >= sizeof d->rule_dirs[0]) {
    return false;
  }
  snprintf(d->rule_dirs[d->rule_dir_count++], sizeof d->rule_dirs[0], "%s", folder);
  return true;
}

// fbSim is large (kilobytes of per-thread state): a program gets it on the heap, never by value,
// so that its members stay the engine's to change.
static fbSim *sim_alloc(const fbRunOptions *options, fbRunOptions *defaults)
{
  if (options == NULL) {
    fbRunOptions_Default(defaults);
  }
  fbSim *sim = calloc(1, sizeof *sim);
  FB_ASSERT(sim != NULL);
  return sim;
}

fbSim *fbSim_New(fbScenarioDef *d, const fbRunOptions *options, char *err, size_t errlen)
{
  fbRunOptions defaults;
  fbSim *sim = sim_alloc(options, &defaults);
  if (!fbSim_Create(sim, d, options != NULL ? options : &defaults, err, errlen)) {
    free(sim);  // fbSim_Create has freed what it built
    return NULL;
  }
  return sim;
}

fbSim *fbSim_NewFromFile(const char *path, const fbRunOptions *options, char *err, size_t errlen)
{
  fbRunOptions defaults;
  fbSim *sim = sim_alloc(options, &defaults);
  if (!fbSim_Load(sim, path, options != NULL ? options : &defaults, err, errlen)) {
    free(sim);
    return NULL;
  }
  return sim;
}

void fbSim_Delete(fbSim *sim)
{
  if (sim != NULL) {
    fbSim_Free(sim);
    free(sim);
  }
}

const char *fbSim_Error(const fbSim *sim) { return sim->error; }

double fbSim_Time(const fbSim *sim) { return (double)sim->world.step * sim->world.dt; }

fbVec2 fbSim_WorldSize(const fbSim *sim) { return fbV(sim->world.width, sim->world.height); }

int fbSim_SpeciesCount(const fbSim *sim) { return sim->world.species_count; }

const char *fbSim_SpeciesName(const fbSim *sim, int s)
{
  return s >= 0 && s < sim->world.species_count ? sim->world.species[s].name : NULL;
}

int fbSim_AgentCount(const fbSim *sim) { return sim->world.agents.count; }

int fbSim_GetAgents(const fbSim *sim, fbAgentState *out, int max)
{
  if (out == NULL || max <= 0) {
    return 0;
  }
  const fbAgents *a = &sim->world.agents;
  int n = a->count < max ? a->count : max;
  for (int i = 0; i < n; ++i) {
    out[i] = (fbAgentState){a->id[i], a->species[i], fbV(a->px[i], a->py[i]), fbV(a->vx[i], a->vy[i])};
  }
  return n;
}
