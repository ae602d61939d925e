// rule_trace.c — the trace of one agent's rules at one step: its headers, each rule's output, and the combiner's weighing (the lines come from debugger.h).
#include "rule_trace.h"

#include "accumulate.h"

#include <stdarg.h>
#include <stdio.h>

static void say(const fbRuleTrace *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const fbRuleTrace *t, const char *fmt, ...)
{
  char text[1200];
  va_list args;
  va_start(args, fmt);
  int n = vsnprintf(text, sizeof text - 1, fmt, args);
  va_end(args);
  n = n < 0 ? 0 : n < (int)sizeof text - 1 ? n : (int)sizeof text - 2;
  text[n] = '\n';
  text[n + 1] = '\0';
  t->out(text, t->ud);
}

// How a rule's output enters the step: the combiner, or added after it.
static const char *role(const fbRuleSlot *slot)
{
  return slot->drag ? "a drag, added after the combiner" : slot->force ? "a force, added after the combiner"
         : slot->preempt                                           ? "pre-emptive"
                                                                   : "combined";
}

void fbRuleTrace_Agent(const fbRuleTrace *t, const fbWorld *w, int i)
{
  const fbAgents *a = &w->agents;
  const fbSpecies *sp = &w->species[a->species[i]];
  say(t, "agent %u (%s) at step %llu: position (%.9g, %.9g), velocity (%.9g, %.9g); combiner %s, max_accel %.9g",
      (unsigned)a->id[i], sp->name, (unsigned long long)w->step, a->px[i], a->py[i], a->vx[i], a->vy[i],
      fbAccum_KindName(sp->accumulator), sp->limits.max_accel);
}

void fbRuleTrace_RuleBegin(const fbRuleTrace *t, const fbSpecies *sp, int k, const char *where)
{
  const fbRuleSlot *slot = &sp->rules[k];
  say(t, "rule %d (%s), weight %.9g, %s", k + 1, slot->native ? "native" : where[0] ? where : "?", slot->weight,
      role(slot));
}

void fbRuleTrace_Skipped(const fbRuleTrace *t, int k, const char *why)
{
  say(t, "rule %d skipped: %s", k + 1, why);
}

void fbRuleTrace_RuleEnd(const fbRuleTrace *t, fbVec2 out)
{
  say(t, "  returned %.9g, %.9g", out.x, out.y);
}

void fbRuleTrace_Failed(const fbRuleTrace *t, const char *message)
{
  say(t, "  raised an error: %.1000s", message);
}

/*
 * The combiner replayed (fbAccum_Contributions) over the steering rules' outputs as the
 * inspector recorded them: what each put into the sum (its weighted output, the part that fitted
 * a prioritised budget, or the winner's alone), and whether max_accel cut the result.
 */
void fbRuleTrace_Combined(const fbRuleTrace *t, const fbSpecies *sp, const fbVec2 *outputs, const bool *ran_any,
                          fbVec2 steer, fbVec2 force, fbVec2 drag, bool held)
{
  int n = sp->rule_count;
  double weights[FB_MAX_RULES] = {0};
  bool preempt[FB_MAX_RULES] = {0}, ran[FB_MAX_RULES] = {0}, truncated = false;
  fbVec2 contributions[FB_MAX_RULES];
  for (int k = 0; k < n; ++k) {
    const fbRuleSlot *slot = &sp->rules[k];
    weights[k] = slot->weight;
    preempt[k] = slot->preempt;
    ran[k] = ran_any[k] && !slot->force && !slot->drag;
  }
  fbAccum_Contributions(sp->accumulator, sp->limits.max_accel, n, outputs, ran, weights, preempt, contributions,
                        &truncated);
  say(t, "combined (%s):", fbAccum_KindName(sp->accumulator));
  for (int k = 0; k < n; ++k) {
    if (ran[k]) {
      say(t, "  rule %d: output (%.9g, %.9g) x weight %.9g -> puts in (%.9g, %.9g)", k + 1, outputs[k].x, outputs[k].y, weights[k], contributions[k].x, contributions[k].y);
    }
  }
  say(t, "  steering (%.9g, %.9g)%s%s", steer.x, steer.y, truncated ? ", cut to max_accel" : "",
      held ? " (held: the agent sits still)" : "");
  if (force.x != 0 || force.y != 0 || drag.x != 0 || drag.y != 0) {
    say(t, "  forces (%.9g, %.9g), drag (%.9g, %.9g)", force.x, force.y, drag.x, drag.y);
  }
}
