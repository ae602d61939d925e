// native_rules.c — Parker's rules in C with the same arithmetic as behaviours/*.lua, operation for operation,
// so a native run and a Lua run of the same scenario give bit-identical flocks.
#include "native_rules.h"

#include <string.h>

// The defaults of the Lua modules (Parker's constants); the benchmark scenario does not override them.
#define SEPARATION_DIVISOR 1.0
#define ALIGNMENT_DIVISOR 8.0
#define COHESION_DIVISOR 100.0
#define BOUNDS_MARGIN 10.0
#define BOUNDS_PUSH 0.05
#define PARKER_STEP 0.05  // the modules' `step`: the constants hold at it, whatever dt

static fbVec2 separation(const fbRuleContext *c, int i)
{
  if (c->agg->n[i] == 0) {
    return fbV(0, 0);
  }
  double k = 1 / (SEPARATION_DIVISOR * PARKER_STEP * PARKER_STEP);
  return fbV(c->agg->sx[i] * k, c->agg->sy[i] * k);
}

static fbVec2 alignment(const fbRuleContext *c, int i)
{
  if (c->agg->n[i] == 0) {
    return fbV(0, 0);
  }
  double k = 1 / (ALIGNMENT_DIVISOR * PARKER_STEP);
  return fbV((c->agg->avx[i] - c->world->agents.vx[i]) * k, (c->agg->avy[i] - c->world->agents.vy[i]) * k);
}

static fbVec2 cohesion(const fbRuleContext *c, int i)
{
  if (c->agg->n[i] == 0) {
    return fbV(0, 0);
  }
  double k = 1 / (COHESION_DIVISOR * PARKER_STEP * PARKER_STEP);
  return fbV((c->agg->cx[i] - c->world->agents.px[i]) * k, (c->agg->cy[i] - c->world->agents.py[i]) * k);
}

static double bound_axis(double v, double size, double k)
{
  return v < BOUNDS_MARGIN ? k : (v > size - BOUNDS_MARGIN ? -k : 0.0);
}

static fbVec2 soft_bounds(const fbRuleContext *c, int i)
{
  const fbWorld *w = c->world;
  if (w->bounds == FB_BOUNDS_WRAP) {
    return fbV(0, 0);
  }
  double k = BOUNDS_PUSH / (PARKER_STEP * PARKER_STEP);
  return fbV(bound_axis(w->agents.px[i], w->width, k), bound_axis(w->agents.py[i], w->height, k));
}

bool fbNative_Install(fbSim *sim)
{
  static const struct {
    const char *module;
    fbNativeRule rule;
  } twins[] = {{"separation", separation}, {"alignment", alignment}, {"cohesion", cohesion}, {"soft_bounds", soft_bounds}};
  for (int s = 0; s < sim->world.species_count; ++s) {
    fbSpecies *sp = &sim->world.species[s];
    for (int k = 0; k < sp->rule_count; ++k) {
      fbRuleSlot *slot = &sp->rules[k];
      for (size_t t = 0; t < sizeof twins / sizeof twins[0] && !slot->native; ++t) {
        if (strcmp(fbSim_RuleModule(sim, s, k), twins[t].module) == 0) {
          slot->native = twins[t].rule;
        }
      }
      if (!slot->native) {
        return false;
      }
    }
    sp->all_native = true;
  }
  return true;
}
