// embed_flock.c — a flock described in C, steered by two shipped Lua rules and one of this program's own, stepped and printed; no SDL.
#include <flockbox/flockbox.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef RULE_DIR
#define RULE_DIR "rules"  // this program's own rules (the Makefile passes the full path)
#endif

// The engine prints nothing itself: its messages come here.
static void on_message(fbLogLevel level, const char *message, void *context)
{
  fprintf(stderr, "embed_flock: flockbox %s: %s\n", level == FB_LOG_INFO ? "says" : "warns", message);
  ++*(int *)context;
}

int main(int argc, char **argv)
{
  int steps = argc > 1 ? atoi(argv[1]) : 400, messages = 0;
  fbSetLogFunction(on_message, &messages);
#ifdef FLOCKBOX_DATA
  fbSetDataFolder(FLOCKBOX_DATA);  // the shipped rules of the installed flockbox, and only them
#endif

  fbScenarioDef *def = fbScenarioDef_New();  // a 100 x 100 torus, dt 0.05, flat ground
  fbScenarioDef_AddRuleFolder(def, RULE_DIR);
  fbSpeciesDef *boid = fbScenarioDef_AddSpecies(def, "boid");
  boid->count = 60;
  boid->vision.radius = 8;
  fbRuleDef_SetNumber(fbSpeciesDef_AddRule(boid, "separation"), "divisor", 20);  // behaviours/separation.lua
  fbSpeciesDef_AddRule(boid, "alignment")->weight = 0.5;                           // behaviours/alignment.lua
  fbRuleDef_SetNumber(fbSpeciesDef_AddRule(boid, "swirl"), "radius", 25);         // rules/swirl.lua

  fbRunOptions options;
  fbRunOptions_Default(&options);
  options.seed = 7;
  char err[1024];
  fbSim *sim = fbSim_New(def, &options, err, sizeof err);
  fbScenarioDef_Delete(def);
  if (sim == NULL) {
    fprintf(stderr, "embed_flock: %s\n", err);
    return 1;
  }
  for (int k = 0; k < steps; ++k) {
    if (!fbSim_Step(sim)) {
      fprintf(stderr, "embed_flock: %s\n", fbSim_Error(sim));
      return 1;
    }
  }

  static fbAgentState agents[64];
  int n = fbSim_GetAgents(sim, agents, 64);
  double mean = 0;  // distance from the swirl's centre, which the rule keeps near its radius
  for (int i = 0; i < n; ++i) {
    mean += hypot(agents[i].position.x - 50, agents[i].position.y - 50) / n;
  }
  printf("after %.1f s: %d agents of %s, mean distance from (50, 50) %.2f\n", fbSim_Time(sim), n,
         fbSim_SpeciesName(sim, 0), mean);
  for (int i = 0; i < 5 && i < n; ++i) {
    printf("agent %u at (%.2f, %.2f) moving (%.2f, %.2f)\n", agents[i].id, agents[i].position.x,
           agents[i].position.y, agents[i].velocity.x, agents[i].velocity.y);
  }
  fbSim_Delete(sim);
  return messages == 0 ? 0 : 1;  // a rule switched off on the way is a failure here
}
