// test_accumulate.c — the combiners against hand-computed results, and what every combiner in the table must do.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "accumulate.h"

#define EPS 1e-12

// cmocka 1.1 compares only floats; the accumulators are exact to double precision.
#include "test_util.h"

static void assert_vec(fbVec2 got, double x, double y)
{
  assert_near(got.x, x, EPS);
  assert_near(got.y, y, EPS);
}

// ---- weighted ----------------------------------------------------------------------------

static void weighted_sums_weighted_outputs(void **state)
{
  (void)state;
  fbAccumulator acc;
  fbAccum_Begin(&acc, FB_ACCUM_WEIGHTED, 10.0);
  assert_true(fbAccum_Add(&acc, fbV(1.0, 2.0), 2.0));   // (2, 4)
  assert_true(fbAccum_Add(&acc, fbV(-1.0, 0.5), 0.5));  // (-0.5, 0.25)
  assert_true(fbAccum_Add(&acc, fbV(3.0, -3.0), 0.0));  // nothing
  assert_false(acc.done);
  assert_vec(fbAccum_Result(&acc), 1.5, 4.25);
}

static void weighted_truncates_to_max_accel(void **state)
{
  (void)state;
  fbAccumulator acc;
  fbAccum_Begin(&acc, FB_ACCUM_WEIGHTED, 2.0);
  fbAccum_Add(&acc, fbV(3.0, 0.0), 1.0);
  fbAccum_Add(&acc, fbV(0.0, 2.0), 2.0);  // sum (3, 4), length 5
  assert_true(fbAccum_Add(&acc, fbV(0.0, 0.0), 1.0));  // weighted is never done
  assert_vec(fbAccum_Result(&acc), 1.2, 1.6);
}

static void weighted_opposing_rules_cancel(void **state)
{
  (void)state;
  fbAccumulator acc;
  fbAccum_Begin(&acc, FB_ACCUM_WEIGHTED, 1.0);
  fbAccum_Add(&acc, fbV(5.0, 1.0), 1.0);
  fbAccum_Add(&acc, fbV(-5.0, -1.0), 1.0);
  assert_vec(fbAccum_Result(&acc), 0.0, 0.0);
}

// ---- prioritised -------------------------------------------------------------------------

static void prioritised_within_budget_adds_whole(void **state)
{
  (void)state;
  fbAccumulator acc;
  fbAccum_Begin(&acc, FB_ACCUM_PRIORITISED, 4.0);
  // Fractions (0.3, 0) and (0.3, 0): |(0.6, 0)| = 0.6 < 1, both whole.
  assert_true(fbAccum_Add(&acc, fbV(1.2, 0.0), 1.0));
  assert_near(acc.used, 0.3, EPS);
  assert_true(fbAccum_Add(&acc, fbV(0.6, 0.0), 2.0));
  assert_near(acc.used, 0.6, EPS);
  assert_vec(fbAccum_Result(&acc), 2.4, 0.0);
}

static void prioritised_third_rule_partly(void **state)
{
  (void)state;
  fbAccumulator acc;
  fbAccum_Begin(&acc, FB_ACCUM_PRIORITISED, 4.0);
  assert_true(fbAccum_Add(&acc, fbV(1.2, 0.0), 1.0));
  assert_true(fbAccum_Add(&acc, fbV(1.2, 0.0), 1.0));  // sum of fractions (0.6, 0)
  // Third fraction (0, 1): |(0.6, t)| = 1 gives t^2 = 0.64, t = 0.8.
  // Quadratic: a = 1, b = 0, c = 0.36 - 1 = -0.64, t = sqrt(2.56) / 2 = 0.8.
  assert_false(fbAccum_Add(&acc, fbV(0.0, 4.0), 1.0));
  assert_true(acc.done);
  assert_near(acc.used, 1.0, EPS);
  assert_vec(acc.sum, 0.6, 0.8);
  assert_vec(fbAccum_Result(&acc), 2.4, 3.2);
  // Spent: later rules change nothing and are told so.
  assert_false(fbAccum_Add(&acc, fbV(-4.0, 0.0), 1.0));
  assert_vec(fbAccum_Result(&acc), 2.4, 3.2);
}

static void prioritised_first_rule_saturates_alone(void **state)
{
  (void)state;
  fbAccumulator acc;
  fbAccum_Begin(&acc, FB_ACCUM_PRIORITISED, 2.0);
  // Fraction (3, 4): a = 25, b = 0, c = -1, t = sqrt(100) / 50 = 0.2 -> (0.6, 0.8).
  assert_false(fbAccum_Add(&acc, fbV(6.0, 8.0), 1.0));
  assert_vec(fbAccum_Result(&acc), 1.2, 1.6);
  assert_false(fbAccum_Add(&acc, fbV(0.0, -2.0), 1.0));
  assert_vec(fbAccum_Result(&acc), 1.2, 1.6);
}

static void prioritised_weights_scale_fractions(void **state)
{
  (void)state;
  fbAccumulator acc;
  fbAccum_Begin(&acc, FB_ACCUM_PRIORITISED, 1.0);
  // Weight 0.5 halves an output of magnitude 1.6 to 0.8: within budget.
  assert_true(fbAccum_Add(&acc, fbV(0.0, 1.6), 0.5));
  assert_vec(fbAccum_Result(&acc), 0.0, 0.8);
  // A zero weight spends nothing.
  assert_true(fbAccum_Add(&acc, fbV(100.0, 0.0), 0.0));
  assert_vec(fbAccum_Result(&acc), 0.0, 0.8);
}

static void prioritised_exactly_full_is_done(void **state)
{
  (void)state;
  fbAccumulator acc;
  fbAccum_Begin(&acc, FB_ACCUM_PRIORITISED, 3.0);
  assert_false(fbAccum_Add(&acc, fbV(0.0, -3.0), 1.0));  // fraction exactly 1
  assert_vec(fbAccum_Result(&acc), 0.0, -3.0);
}

static void prioritised_zero_max_accel(void **state)
{
  (void)state;
  fbAccumulator acc;
  fbAccum_Begin(&acc, FB_ACCUM_PRIORITISED, 0.0);
  assert_false(fbAccum_Add(&acc, fbV(1.0, 1.0), 1.0));
  assert_vec(fbAccum_Result(&acc), 0.0, 0.0);
}

// ---- budget ------------------------------------------------------------------------------

static void budget_hand_cases(void **state)
{
  (void)state;
  fbVec2 sum = fbV(0.0, 0.0);
  assert_near(fbAccum_Budget(&sum, fbV(0.0, 0.5)), 0.5, EPS);
  assert_vec(sum, 0.0, 0.5);
  // Adding along the same line: only 0.5 of the 1.0 fits, t = 0.5.
  assert_near(fbAccum_Budget(&sum, fbV(0.0, 1.0)), 1.0, EPS);
  assert_vec(sum, 0.0, 1.0);
  // Full: a tangential add reaches |(t, 1)| = 1 only at t = 0, so nothing moves.
  assert_near(fbAccum_Budget(&sum, fbV(1.0, 0.0)), 1.0, EPS);
  assert_vec(sum, 0.0, 1.0);
  // Pointing back inside the disc is taken whole.
  assert_near(fbAccum_Budget(&sum, fbV(0.0, -0.25)), 0.75, EPS);
  assert_vec(sum, 0.0, 0.75);
}

static void budget_opposing_add_uses_far_root(void **state)
{
  (void)state;
  // sum (0.5, 0), add (-4, 0): |0.5 - 4t| = 1 at t = -1/8 and t = 3/8; the forward root wins.
  fbVec2 sum = fbV(0.5, 0.0);
  assert_near(fbAccum_Budget(&sum, fbV(-4.0, 0.0)), 1.0, EPS);
  assert_vec(sum, -1.0, 0.0);
}

static void budget_near_full_is_precise(void **state)
{
  (void)state;
  // |sum| just under 1, add along it (b > 0, c ~ -2e-9): t ~ 1e-9 still lands on the circle.
  fbVec2 sum = fbV(1.0 - 1e-9, 0.0);
  assert_near(fbAccum_Budget(&sum, fbV(1.0, 0.0)), 1.0, 1e-15);
  assert_near(sum.x, 1.0, 1e-15);
}

static void budget_guards_outside_disc(void **state)
{
  (void)state;
  // Not reachable through fbAccum_Add, but must stay finite: a == 0, and |sum| > 1.
  fbVec2 sum = fbV(2.0, 0.0);
  assert_near(fbAccum_Budget(&sum, fbV(0.0, 0.0)), 2.0, EPS);
  assert_near(fbAccum_Budget(&sum, fbV(0.0, 1.0)), 2.0, EPS);  // discriminant < 0
  assert_vec(sum, 2.0, 0.0);
}

// ---- exclusive ---------------------------------------------------------------------------

static void exclusive_first_nonzero_wins(void **state)
{
  (void)state;
  fbAccumulator acc;
  fbAccum_Begin(&acc, FB_ACCUM_EXCLUSIVE, 5.0);
  assert_true(fbAccum_Add(&acc, fbV(0.0, 0.0), 1.0));   // idle rule: skipped
  assert_true(fbAccum_Add(&acc, fbV(7.0, 7.0), 0.0));   // weighted to zero: skipped
  assert_false(fbAccum_Add(&acc, fbV(1.0, -2.0), 1.5)); // winner (1.5, -3)
  assert_false(fbAccum_Add(&acc, fbV(1.0, 1.0), 1.0));  // ignored
  assert_vec(fbAccum_Result(&acc), 1.5, -3.0);
}

static void exclusive_truncates(void **state)
{
  (void)state;
  fbAccumulator acc;
  fbAccum_Begin(&acc, FB_ACCUM_EXCLUSIVE, 1.0);
  assert_false(fbAccum_Add(&acc, fbV(-3.0, 4.0), 2.0));
  assert_vec(fbAccum_Result(&acc), -0.6, 0.8);
}

static void exclusive_nothing_is_zero(void **state)
{
  (void)state;
  fbAccumulator acc;
  fbAccum_Begin(&acc, FB_ACCUM_EXCLUSIVE, 1.0);
  assert_true(fbAccum_Add(&acc, fbV(0.0, 0.0), 1.0));
  assert_vec(fbAccum_Result(&acc), 0.0, 0.0);
}

// ---- strict priority (Gamlen 3.6) ----------------------------------------------------------

// Collision avoidance (pre-emptive) acts: nothing else counts, wherever it stands in the list.
static void strict_acting_preemptive_rule_wins_outright(void **state)
{
  (void)state;
  fbAccumulator acc;
  fbAccum_Begin(&acc, FB_ACCUM_STRICT, 10.0);
  assert_true(fbAccum_Add(&acc, fbV(1.0, 0.0), 1.0));            // alignment
  assert_true(fbAccum_Add(&acc, fbV(0.0, 2.0), 1.0));            // centring
  assert_false(fbAccum_AddPreemptive(&acc, fbV(-3.0, 0.0), 2.0)); // avoidance acts: (-6, 0) alone
  assert_false(fbAccum_Add(&acc, fbV(5.0, 5.0), 1.0));           // path following: skipped
  assert_vec(fbAccum_Result(&acc), -6.0, 0.0);
}

// Avoidance has nothing to do: all the other behaviours apply, summed.
static void strict_idle_preemptive_rule_lets_the_rest_add_up(void **state)
{
  (void)state;
  fbAccumulator acc;
  fbAccum_Begin(&acc, FB_ACCUM_STRICT, 10.0);
  assert_true(fbAccum_AddPreemptive(&acc, fbV(0.0, 0.0), 1.0));
  assert_true(fbAccum_Add(&acc, fbV(1.0, 0.0), 1.0));
  assert_true(fbAccum_Add(&acc, fbV(0.0, 2.0), 1.0));
  assert_true(fbAccum_Add(&acc, fbV(1.0, 1.0), 0.5));
  assert_vec(fbAccum_Result(&acc), 1.5, 2.5);
  fbAccum_Begin(&acc, FB_ACCUM_STRICT, 1.0);  // and the sum is truncated like a weighted one
  fbAccum_Add(&acc, fbV(3.0, 4.0), 1.0);
  assert_vec(fbAccum_Result(&acc), 0.6, 0.8);
}

// The difference the issue measured: under exclusive, alignment listed first shuts out centring and
// path following; under strict they still act.
static void strict_differs_from_exclusive(void **state)
{
  (void)state;
  fbAccumulator ex, st;
  fbAccum_Begin(&ex, FB_ACCUM_EXCLUSIVE, 10.0);
  fbAccum_Begin(&st, FB_ACCUM_STRICT, 10.0);
  fbVec2 outputs[] = {{1.0, 0.0}, {0.0, 2.0}, {0.0, 1.0}};  // alignment, centring, path
  for (int k = 0; k < 3; ++k) {
    fbAccum_Add(&ex, outputs[k], 1.0);
    fbAccum_Add(&st, outputs[k], 1.0);
  }
  assert_vec(fbAccum_Result(&ex), 1.0, 0.0);
  assert_vec(fbAccum_Result(&st), 1.0, 3.0);
}

// A rule marked pre-emptive under another kind is an ordinary rule.
static void preemptive_is_ordinary_elsewhere(void **state)
{
  (void)state;
  fbAccumulator acc;
  fbAccum_Begin(&acc, FB_ACCUM_WEIGHTED, 10.0);
  fbAccum_Add(&acc, fbV(1.0, 0.0), 1.0);
  fbAccum_AddPreemptive(&acc, fbV(0.0, 1.0), 1.0);
  assert_vec(fbAccum_Result(&acc), 1.0, 1.0);
}

// ---- names -------------------------------------------------------------------------------

static void kind_names_round_trip(void **state)
{
  (void)state;
  fbAccumKind kind;
  for (int k = 0; k < FB_ACCUM_KINDS; k++) {
    const fbCombiner *c = fbAccum_Combiner((fbAccumKind)k);
    assert_true(fbAccum_ParseKind(fbAccum_KindName((fbAccumKind)k), &kind));
    assert_int_equal(kind, k);
    assert_string_equal(fbAccum_KindName((fbAccumKind)k), c->name);
    assert_true(c->alias == NULL || (fbAccum_ParseKind(c->alias, &kind) && kind == (fbAccumKind)k));
    assert_true(c->help != NULL && c->help[0] != '\0');
    assert_non_null(c->add);
  }
  assert_true(fbAccum_ParseKind("prioritized", &kind));
  assert_int_equal(kind, FB_ACCUM_PRIORITISED);
  assert_string_equal(fbAccum_KindName(FB_ACCUM_PRIORITISED), "prioritised");
  kind = FB_ACCUM_EXCLUSIVE;
  assert_false(fbAccum_ParseKind("sum", &kind));
  assert_false(fbAccum_ParseKind("", &kind));
  assert_false(fbAccum_ParseKind(NULL, &kind));
  assert_int_equal(kind, FB_ACCUM_EXCLUSIVE);  // untouched on failure
}

// What every combiner in the table must do, whatever its maths: a single rule's output within
// max_accel passes unchanged; no result is ever longer than max_accel; nothing in gives nothing
// out; and the contributions the window draws add up to the result when it was not cut.
static void every_combiner_keeps_the_contract(void **state)
{
  (void)state;
  fbVec2 out[3] = {fbV(3, 4), fbV(-40, 10), fbV(0, 0)}, c[3];
  bool ran[3] = {true, true, true}, pre[3] = {false, true, false}, cut;
  double w[3] = {1, 2, 1};
  for (int k = 0; k < FB_ACCUM_KINDS; k++) {
    fbAccumKind kind = (fbAccumKind)k;
    fbAccumulator acc;
    fbAccum_Begin(&acc, kind, 10.0);
    fbAccum_Add(&acc, fbV(3, 4), 1.0);
    assert_vec(fbAccum_Result(&acc), 3, 4);
    fbAccum_Begin(&acc, kind, 10.0);
    for (int r = 0; r < 3; r++) {
      (pre[r] ? fbAccum_AddPreemptive : fbAccum_Add)(&acc, out[r], w[r]);
    }
    assert_true(fbV_Length(fbAccum_Result(&acc)) <= 10.0 * (1 + 1e-12));
    fbAccum_Begin(&acc, kind, 10.0);
    assert_vec(fbAccum_Result(&acc), 0, 0);
    fbVec2 small[2] = {fbV(1, 0), fbV(0, 2)};
    fbAccum_Contributions(kind, 10.0, 2, small, ran, w, pre, c, &cut);
    fbAccum_Begin(&acc, kind, 10.0);
    fbAccum_Add(&acc, small[0], w[0]);
    fbAccum_AddPreemptive(&acc, small[1], w[1]);
    fbVec2 result = fbAccum_Result(&acc);
    assert_false(cut);
    assert_vec(fbV_Add(c[0], c[1]), result.x, result.y);
  }
}

// ---- contributions (what the window draws for each rule) ------------------------------------

// Moths: alignment at weight 0.1 says more than swarm_point at 1 before weighting; its
// contribution is a tenth of its output, and the contributions add up to the sum.
static void contributions_are_weighted_and_add_up(void **state)
{
  (void)state;
  fbVec2 out[2] = {fbV(0, 5), fbV(2, 0)}, c[2];
  bool ran[2] = {true, true}, pre[2] = {false, false}, cut;
  double w[2] = {0.1, 1.0};
  fbAccum_Contributions(FB_ACCUM_WEIGHTED, 10, 2, out, ran, w, pre, c, &cut);
  assert_vec(c[0], 0, 0.5);
  assert_vec(c[1], 2, 0);
  assert_false(cut);
  fbAccum_Contributions(FB_ACCUM_WEIGHTED, 1, 2, out, ran, w, pre, c, &cut);
  assert_true(cut);  // |(2, 0.5)| > 1
}

// Prioritised: the third rule gets only what is left of the budget, the fourth nothing.
static void contributions_prioritised_follow_the_budget(void **state)
{
  (void)state;
  fbVec2 out[3] = {fbV(6, 0), fbV(0, 8), fbV(-5, 0)}, c[3];
  bool ran[3] = {true, true, true}, pre[3] = {false, false, false}, cut;
  double w[3] = {1, 1, 1};
  fbAccum_Contributions(FB_ACCUM_PRIORITISED, 10, 3, out, ran, w, pre, c, &cut);
  assert_vec(c[0], 6, 0);
  assert_vec(c[1], 0, 8);  // |(6, 8)| = 10: the budget is spent exactly
  assert_vec(c[2], 0, 0);
  fbAccumulator acc;
  fbAccum_Begin(&acc, FB_ACCUM_PRIORITISED, 10);
  for (int k = 0; k < 3; ++k) {
    fbAccum_Add(&acc, out[k], w[k]);
  }
  fbVec2 r = fbAccum_Result(&acc), sum = fbV_Add(fbV_Add(c[0], c[1]), c[2]);
  assert_vec(sum, r.x, r.y);
}

// Strict priority: a pre-emptive rule that acts takes everything, the others contribute nothing.
static void contributions_preempted_rules_give_nothing(void **state)
{
  (void)state;
  fbVec2 out[3] = {fbV(1, 0), fbV(0, 3), fbV(0, 1)}, c[3];
  bool ran[3] = {true, true, false}, pre[3] = {false, true, false}, cut;
  double w[3] = {1, 2, 1};
  fbAccum_Contributions(FB_ACCUM_STRICT, 10, 3, out, ran, w, pre, c, &cut);
  assert_vec(c[0], 0, 0);
  assert_vec(c[1], 0, 6);
  assert_vec(c[2], 0, 0);
  fbAccum_Contributions(FB_ACCUM_EXCLUSIVE, 10, 3, out, ran, w, pre, c, &cut);
  assert_vec(c[0], 1, 0);  // the first non-zero wins
  assert_vec(c[1], 0, 0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(weighted_sums_weighted_outputs),
      cmocka_unit_test(contributions_are_weighted_and_add_up),
      cmocka_unit_test(contributions_prioritised_follow_the_budget),
      cmocka_unit_test(contributions_preempted_rules_give_nothing),
      cmocka_unit_test(weighted_truncates_to_max_accel),
      cmocka_unit_test(weighted_opposing_rules_cancel),
      cmocka_unit_test(prioritised_within_budget_adds_whole),
      cmocka_unit_test(prioritised_third_rule_partly),
      cmocka_unit_test(prioritised_first_rule_saturates_alone),
      cmocka_unit_test(prioritised_weights_scale_fractions),
      cmocka_unit_test(prioritised_exactly_full_is_done),
      cmocka_unit_test(prioritised_zero_max_accel),
      cmocka_unit_test(budget_hand_cases),
      cmocka_unit_test(budget_opposing_add_uses_far_root),
      cmocka_unit_test(budget_near_full_is_precise),
      cmocka_unit_test(budget_guards_outside_disc),
      cmocka_unit_test(exclusive_first_nonzero_wins),
      cmocka_unit_test(exclusive_truncates),
      cmocka_unit_test(exclusive_nothing_is_zero),
      cmocka_unit_test(strict_acting_preemptive_rule_wins_outright),
      cmocka_unit_test(strict_idle_preemptive_rule_lets_the_rest_add_up),
      cmocka_unit_test(strict_differs_from_exclusive),
      cmocka_unit_test(preemptive_is_ordinary_elsewhere),
      cmocka_unit_test(kind_names_round_trip),
      cmocka_unit_test(every_combiner_keeps_the_contract),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
