// scenario_scale.c — a shipped scenario at another agent count: its species' shares of N, and the overrides that spawn them.
#include "scenario_scale.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim.h"  // fbSim_SpeciesDef: the count a species is described with, and whether it is the player

// What the scenario ships with, per species: agents at the start, of which the hand-placed ones.
typedef struct Shipped {
  int species_count;
  int agents[FB_MAX_SPECIES], placed[FB_MAX_SPECIES];
  bool player[FB_MAX_SPECIES];
  char name[FB_MAX_SPECIES][FB_NAME_LEN];
  fbVec2 world;
} Shipped;

static void count_by_species(const fbSim *sim, int *agents)
{
  int n = fbSim_AgentCount(sim);
  fbAgentState *all = malloc(sizeof *all * (size_t)(n > 0 ? n : 1));
  n = fbSim_GetAgents(sim, all, n);
  for (int i = 0; i < n; ++i) {
    agents[all[i].species]++;
  }
  free(all);
}

static bool read_shipped(const char *path, Shipped *out, char *err, size_t errlen)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.threads = 1;
  o.headless = true;
  o.lua_timeout_ms = 600000;  // under valgrind flow_maze's load (a flow function sampled) takes over 2 s
  fbSim *sim = fbSim_NewFromFile(path, &o, err, errlen);
  if (sim == NULL) {
    return false;
  }
  *out = (Shipped){.species_count = fbSim_SpeciesCount(sim), .world = fbSim_WorldSize(sim)};
  count_by_species(sim, out->agents);
  for (int s = 0; s < out->species_count; ++s) {
    const fbSpeciesDef *def = fbSim_SpeciesDef(sim, s);
    out->placed[s] = out->agents[s] - def->count;
    out->player[s] = def->player;
    snprintf(out->name[s], sizeof out->name[s], "%s", fbSim_SpeciesName(sim, s));
  }
  fbSim_Delete(sim);
  return true;
}

// Largest remainder: floor of each exact share, then one more to the largest fractions.
static void share_out(const Shipped *sh, int target, int shipped_total, fbScalePlan *plan)
{
  double frac[FB_MAX_SPECIES] = {0};
  int given = 0;
  for (int s = 0; s < sh->species_count; ++s) {
    if (plan->scaled[s]) {
      double exact = (double)target * sh->agents[s] / shipped_total;
      plan->agents[s] = (int)floor(exact);
      frac[s] = exact - plan->agents[s];
      given += plan->agents[s];
    }
  }
  for (; given < target; ++given) {
    int best = -1;
    for (int s = 0; s < sh->species_count; ++s) {
      if (plan->scaled[s] && (best < 0 || frac[s] > frac[best])) {
        best = s;
      }
    }
    plan->agents[best]++;
    frac[best] = -1;
  }
}

static char *next_set(fbScalePlan *plan) { return plan->text[plan->set_count++]; }

static void write_sets(const Shipped *sh, fbScaleSpawn spawn, fbScalePlan *plan)
{
  const size_t len = sizeof plan->text[0];
  for (int s = 0; s < sh->species_count; ++s) {
    if (!plan->scaled[s]) {
      continue;
    }
    // The hand-placed agents come on top of count; a species never has fewer than them.
    int random = plan->agents[s] > sh->placed[s] ? plan->agents[s] - sh->placed[s] : 0;
    plan->agents[s] = random + sh->placed[s];
    snprintf(next_set(plan), len, "%s.count=%d", sh->name[s], random);
    if (spawn == FB_SCALE_SPREAD) {
      snprintf(next_set(plan), len, "%s.spawn.area=0,0,%.17g,%.17g", sh->name[s], sh->world.x, sh->world.y);
      snprintf(next_set(plan), len, "%s.spawn.around=0,0,-1", sh->name[s]);  // r < 0: the area, not a disc
    }
  }
}

bool fbScale_Plan(const char *path, int agents, fbScaleSpawn spawn, fbScalePlan *plan, char *err, size_t errlen)
{
  Shipped sh;
  if (!read_shipped(path, &sh, err, errlen)) {
    return false;
  }
  *plan = (fbScalePlan){.species_count = sh.species_count};
  int fixed = 0, shipped_total = 0, scaled = 0;
  for (int s = 0; s < sh.species_count; ++s) {
    plan->scaled[s] = !sh.player[s] && sh.agents[s] > 0;
    plan->agents[s] = plan->scaled[s] ? 0 : sh.agents[s];
    fixed += plan->scaled[s] ? 0 : sh.agents[s];
    shipped_total += plan->scaled[s] ? sh.agents[s] : 0;
    scaled += plan->scaled[s];
  }
  if (scaled == 0 || agents - fixed < scaled) {
    snprintf(err, errlen, "%s: cannot hold %d agents (%d fixed, %d species to scale)", path, agents, fixed, scaled);
    return false;
  }
  share_out(&sh, agents - fixed, shipped_total, plan);
  write_sets(&sh, spawn, plan);
  return true;
}

void fbScale_Apply(const fbScalePlan *plan, fbRunOptions *o)
{
  for (int k = 0; k < plan->set_count && o->set_count < FB_MAX_SETS; ++k) {
    o->sets[o->set_count++] = plan->text[k];
  }
}
