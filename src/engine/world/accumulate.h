// accumulate.h — the ways (combiners) a species combines its rules' steering into one acceleration.
#ifndef FB_ACCUMULATE_H
#define FB_ACCUMULATE_H

#include "fb.h"

// fbAccumKind, which a program chooses for a species, is in flockbox.h, in the order of the table in
// accumulate.c (fbAccum_Combiner), which says what each does: a new one is a value there and an
// entry here.

typedef struct fbAccumulator {
  fbAccumKind kind;
  double max_accel;
  fbVec2 sum;       // weighted: running sum; prioritised: running sum of fractions; exclusive: the winner
  double used;      // prioritised: magnitude of the fraction sum so far
  bool done;        // later rules cannot change the result
} fbAccumulator;

// One combiner as everything else reads it: the schema (names), the panel (its button), the HUD,
// the fuzz target, the tests and docs/rules.md (help) all go through this table.
typedef struct fbCombiner {
  const char *name;          // as a scenario, --set and the panel write it
  const char *alias;         // another spelling also accepted, or NULL
  const char *help;          // one line: what it does, and its source
  void (*add)(fbAccumulator *acc, fbVec2 contribution);  // one rule's weighted output; sets acc->done
                                                         // once later rules can no longer count
  bool fractions;            // sums fractions of max_accel within a magnitude budget of 1
  bool replaces;             // a rule that ends it replaces the sum: the earlier rules count for nothing
  bool preempts;             // rules marked preempt = true win outright when they act
} fbCombiner;

// The table entry of a kind (0 <= kind < FB_ACCUM_KINDS).
const fbCombiner *fbAccum_Combiner(fbAccumKind kind);

// The k-th name a scenario may write (the names in table order, then the aliases): false past the
// last. The schema's accumulator field takes its choices from here.
bool fbAccum_Choice(int k, fbChoice *out);

void fbAccum_Begin(fbAccumulator *acc, fbAccumKind kind, double max_accel);

// Adds one rule's output (an acceleration) times its weight. Returns false once later rules can no
// longer change the result (budget spent, or an exclusive winner found): the caller then skips them.
bool fbAccum_Add(fbAccumulator *acc, fbVec2 steer, double weight);

// The same for a rule marked pre-emptive: under FB_ACCUM_STRICT a non-zero output replaces whatever
// the others gave and ends the accumulation; under the other kinds it is fbAccum_Add.
bool fbAccum_AddPreemptive(fbAccumulator *acc, fbVec2 steer, double weight);

// The combined acceleration, never longer than max_accel.
fbVec2 fbAccum_Result(const fbAccumulator *acc);

// Gompert's Boid::accumulate: adds `add` to *sum, or only the part t*add (0 <= t <= 1) that brings
// |sum| to exactly 1, solving |sum + t add|^2 = 1. Returns the new |sum|.
double fbAccum_Budget(fbVec2 *sum, fbVec2 add);

// What each of n steering rules (in order) put into the combined acceleration, replaying the
// accumulator: weight * output under a weighted sum, the part of it that fitted the budget when
// prioritised, the winner's alone when exclusive or pre-empted. outputs[k] is rule k's raw output;
// ran[k] false for a rule that did not run. The contributions add up to the accumulator's sum before
// it is truncated to max_accel (*truncated says whether that cut the result).
void fbAccum_Contributions(fbAccumKind kind, double max_accel, int n, const fbVec2 *outputs, const bool *ran,
                           const double *weights, const bool *preempt, fbVec2 *contributions, bool *truncated);

bool fbAccum_ParseKind(const char *name, fbAccumKind *kind);
const char *fbAccum_KindName(fbAccumKind kind);

#endif
