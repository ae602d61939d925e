// accumulate.c — combining a species' rule outputs into one acceleration (see accumulate.h).
#include "accumulate.h"

#include <string.h>

// Prioritised accumulation stops once the budget is spent to within this tolerance: the
// quadratic's root lands on |sum| = 1 only up to rounding.
#define FB_ACCUM_FULL (1.0 - 1e-12)

void fbAccum_Begin(fbAccumulator *acc, fbAccumKind kind, double max_accel)
{
  FB_ASSERT(acc != NULL);
  FB_ASSERT(max_accel >= 0.0);  // also refuses NaN
  acc->kind = kind;
  acc->max_accel = max_accel;
  acc->sum = fbV(0.0, 0.0);
  acc->used = 0.0;
  // With no acceleration to hand out, prioritised fractions (output / max_accel) are undefined
  // and the result is zero whatever the rules say.
  acc->done = fbAccum_Combiner(kind)->fractions && !(max_accel > 0.0);
}

/*
 * Weighted sum (Parker's pseudocode: velocity += v1 + v2 + ...; Bourg's weighted steering):
 *   sum = sum_i w_i s_i,   result = truncate(sum, max_accel).
 * Every rule always contributes, so the accumulator is never done. The drawback the other two
 * kinds address: opposing rules can cancel, and truncation scales urgent and idle rules alike.
 */
static void add_weighted(fbAccumulator *acc, fbVec2 contribution)
{
  acc->sum = fbV_Add(acc->sum, contribution);
}

/*
 * Prioritised (Reynolds 1987 "prioritized acceleration allocation"; Gompert's navigator):
 * rules are offered in priority order, each as a fraction f_i = w_i s_i / max_accel of the
 * largest acceleration. fbAccum_Budget adds each fraction whole while the running sum stays
 * within the unit disc, and only the part that reaches the circle |sum| = 1 otherwise. Once
 * the magnitude budget of 1 is spent the lower-priority rules get nothing, so in a crisis
 * (say collision avoidance at full strength) they cannot dilute the urgent one.
 * result = sum * max_accel.
 */
static void add_prioritised(fbAccumulator *acc, fbVec2 contribution)
{
  fbVec2 fraction = fbV_Scale(contribution, 1.0 / acc->max_accel);
  acc->used = fbAccum_Budget(&acc->sum, fraction);
  acc->done = acc->used >= FB_ACCUM_FULL;
}

/*
 * Exclusive: the first rule in priority order whose weighted output is not exactly zero decides
 * alone; a rule with nothing to do returns zero and passes control on. result = truncate(winner,
 * max_accel). Not Gamlen's scheme (see strict below): with alignment listed first, centring and
 * path following never run, since alignment almost always has something to say.
 */
static void add_exclusive(fbAccumulator *acc, fbVec2 contribution)
{
  if (contribution.x != 0.0 || contribution.y != 0.0) {
    acc->sum = contribution;
    acc->done = true;
  }
}

/*
 * Strict priority (Gamlen, section 3.6): "when collision avoidance acts, nothing else runs;
 * otherwise all other behaviours apply". Rules marked pre-emptive (collision avoidance) are
 * checked for action; the first whose weighted output is non-zero decides alone:
 *   result = truncate(w_p s_p, max_accel)           if some pre-emptive rule acts,
 *   result = truncate(sum of w_i s_i over the rest)  otherwise.
 * A pre-emptive rule listed after others still wins, replacing their sum, so the outcome does not
 * depend on where in the list it stands.
 */
bool fbAccum_AddPreemptive(fbAccumulator *acc, fbVec2 steer, double weight)
{
  if (!fbAccum_Combiner(acc->kind)->preempts || acc->done) {
    return fbAccum_Add(acc, steer, weight);
  }
  fbVec2 contribution = fbV_Scale(steer, weight);
  if (contribution.x != 0.0 || contribution.y != 0.0) {
    acc->sum = contribution;
    acc->done = true;
  }
  return !acc->done;
}

/*
 * The combiners: one entry per fbAccumKind, in its order. Everything that names, explains, offers
 * or tests a combiner reads this table, so a new combiner is a kind in accumulate.h, an add
 * function above with its maths, and an entry here.
 */
static const fbCombiner COMBINERS[] = {
    [FB_ACCUM_WEIGHTED] = {"weighted", NULL, "sum of weight x output, cut to max_accel (Parker; Bourg)", add_weighted},
    [FB_ACCUM_PRIORITISED] = {"prioritised", "prioritized",  // Reynolds' spelling
                              "in priority order, fractions of max_accel until a budget of 1 is spent (Reynolds 1987; Gompert)",
                              add_prioritised, .fractions = true},
    [FB_ACCUM_EXCLUSIVE] = {"exclusive", NULL, "the first rule in priority order with a non-zero output decides alone",
                            add_exclusive, .replaces = true},
    [FB_ACCUM_STRICT] = {"strict", NULL,
                         "a pre-emptive rule that acts wins outright, else the others add up as weighted (Gamlen 3.6)",
                         add_weighted, .replaces = true, .preempts = true},
};
// A kind added before FB_ACCUM_KINDS without its entry here stops the build (a hole in the middle is
// caught by test_accumulate's every_combiner_keeps_the_contract, which walks every kind).
_Static_assert(sizeof COMBINERS / sizeof COMBINERS[0] == FB_ACCUM_KINDS, "every fbAccumKind needs an entry in COMBINERS");

const fbCombiner *fbAccum_Combiner(fbAccumKind kind)
{
  FB_ASSERT(kind >= 0 && kind < FB_ACCUM_KINDS);
  return &COMBINERS[kind];
}

bool fbAccum_Choice(int k, fbChoice *out)
{
  for (int kind = 0; kind < FB_ACCUM_KINDS; ++kind) {
    if (k-- == 0) {
      *out = (fbChoice){COMBINERS[kind].name, kind};
      return true;
    }
  }
  for (int kind = 0; kind < FB_ACCUM_KINDS; ++kind) {
    if (COMBINERS[kind].alias != NULL && k-- == 0) {
      *out = (fbChoice){COMBINERS[kind].alias, kind};
      return true;
    }
  }
  return false;
}

bool fbAccum_Add(fbAccumulator *acc, fbVec2 steer, double weight)
{
  if (acc->done) {
    return false;
  }
  fbAccum_Combiner(acc->kind)->add(acc, fbV_Scale(steer, weight));
  return !acc->done;
}

/*
 * The replay adds the rules to a fresh accumulator in order and takes each one's contribution as the
 * change it made to the running sum: sum_k - sum_{k-1} (times max_accel for prioritised fractions).
 * A rule that replaced the sum (the exclusive winner, a pre-emptive rule under strict priority)
 * leaves the earlier ones with nothing. Then sum of contributions = the accumulator's sum.
 */
void fbAccum_Contributions(fbAccumKind kind, double max_accel, int n, const fbVec2 *outputs, const bool *ran,
                           const double *weights, const bool *preempt, fbVec2 *contributions, bool *truncated)
{
  fbAccumulator acc;
  fbAccum_Begin(&acc, kind, max_accel);
  const fbCombiner *combiner = fbAccum_Combiner(kind);
  double unit = combiner->fractions ? max_accel : 1.0;
  for (int k = 0; k < n; ++k) {
    contributions[k] = fbV(0, 0);
    if (!ran[k] || acc.done) {
      continue;
    }
    fbVec2 before = acc.sum;
    if (preempt[k]) {
      fbAccum_AddPreemptive(&acc, outputs[k], weights[k]);
    } else {
      fbAccum_Add(&acc, outputs[k], weights[k]);
    }
    bool replaced = acc.done && combiner->replaces;
    if (replaced) {
      for (int j = 0; j < k; ++j) {
        contributions[j] = fbV(0, 0);
      }
      before = fbV(0, 0);
    }
    contributions[k] = fbV_Scale(fbV_Sub(acc.sum, before), unit);
  }
  fbVec2 sum = fbV_Scale(acc.sum, unit);
  *truncated = fbV_Length(sum) > max_accel * (1 + 1e-9);
}

fbVec2 fbAccum_Result(const fbAccumulator *acc)
{
  if (fbAccum_Combiner(acc->kind)->fractions) {
    // |sum| <= 1 by construction; the truncation only absorbs rounding.
    return fbV_Truncate(fbV_Scale(acc->sum, acc->max_accel), acc->max_accel);
  }
  return fbV_Truncate(acc->sum, acc->max_accel);
}

/*
 * Gompert, appendix A (Boid::accumulate). With |sum| <= 1, add `add` if |sum + add| <= 1;
 * otherwise find the t in [0, 1] with |sum + t add| = 1:
 *   |sum + t add|^2 = 1  <=>  a t^2 + b t + c = 0,
 *   a = |add|^2,  b = 2 add.sum,  c = |sum|^2 - 1 <= 0.
 * Since c <= 0 the roots have opposite signs (a t^2 + b t + c is <= 0 at t = 0 and > 1 at
 * t = 1), so the wanted one is the larger root t = (-b + sqrt(b^2 - 4ac)) / 2a, in [0, 1).
 * When b > 0 that expression subtracts two nearly equal numbers; the algebraically equal
 * t = -2c / (b + sqrt(b^2 - 4ac)) keeps full precision there.
 * Guards for a caller that passes |sum| > 1 (not reachable from fbAccum_Add): a == 0 or a
 * negative discriminant add nothing, and t is clamped to [0, 1].
 */
double fbAccum_Budget(fbVec2 *sum, fbVec2 add)
{
  fbVec2 whole = fbV_Add(*sum, add);
  if (fbV_Length2(whole) <= 1.0) {
    *sum = whole;
    return fbV_Length(whole);
  }
  double a = fbV_Length2(add);
  double b = 2.0 * fbV_Dot(add, *sum);
  double c = fbV_Length2(*sum) - 1.0;
  double disc = b * b - 4.0 * a * c;
  double t = 0.0;
  if (a > 0.0 && disc >= 0.0) {
    double root = sqrt(disc);
    t = b > 0.0 ? -2.0 * c / (b + root) : (-b + root) / (2.0 * a);
    t = fmin(fmax(t, 0.0), 1.0);
  }
  *sum = fbV_Add(*sum, fbV_Scale(add, t));
  return fbV_Length(*sum);
}

bool fbAccum_ParseKind(const char *name, fbAccumKind *kind)
{
  fbChoice c;
  for (int k = 0; name != NULL && fbAccum_Choice(k, &c); ++k) {
    if (strcmp(name, c.name) == 0) {
      *kind = (fbAccumKind)c.value;
      return true;
    }
  }
  return false;
}

const char *fbAccum_KindName(fbAccumKind kind)
{
  return kind >= 0 && kind < FB_ACCUM_KINDS ? COMBINERS[kind].name : "unknown";
}
