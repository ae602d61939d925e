// test_fit_methods.c — the fitting methods on functions whose answers are known: a quadratic and Rosenbrock's valley (Nelder–Mead, CMA-ES), a normal model with a uniform prior (ABC).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fit_abc.h"
#include "fit_cmaes.h"
#include "fit_nelder_mead.h"
#include "test_util.h"

// f = sum (x_i - a_i)^2, least at a = (0.3, 0.7, ...).
static bool quadratic(void *ctx, const double *x, int n, int dim, double *f)
{
  long *calls = ctx;
  for (int k = 0; k < n; ++k) {
    f[k] = 0;
    for (int i = 0; i < dim; ++i) {
      double a = i % 2 == 0 ? 0.3 : 0.7;
      f[k] += (x[k * dim + i] - a) * (x[k * dim + i] - a);
    }
  }
  *calls += n;
  return true;
}

// Rosenbrock on [-2, 2]^2 (u in the unit box, x = 4u - 2): least, 0, at x = (1, 1), u = (0.75, 0.75).
static bool rosenbrock(void *ctx, const double *u, int n, int dim, double *f)
{
  (void)ctx;
  for (int k = 0; k < n; ++k) {
    double x = 4 * u[k * dim] - 2, y = 4 * u[k * dim + 1] - 2;
    f[k] = 100 * (y - x * x) * (y - x * x) + (1 - x) * (1 - x);
  }
  return true;
}

static void reflection_folds_into_the_box(void **state)
{
  (void)state;
  assert_near(fbFit_Reflect(1.2), 0.8, 1e-12);
  assert_near(fbFit_Reflect(-0.3), 0.3, 1e-12);
  assert_near(fbFit_Reflect(2.5), 0.5, 1e-12);
  assert_near(fbFit_Reflect(0.4), 0.4, 0);
}

static void nelder_mead_finds_a_quadratic_minimum(void **state)
{
  (void)state;
  long calls = 0;
  fbFitProblem p = {3, quadratic, &calls, 500, 1};
  fbFitResult r;
  fbFitNelderMead_Minimise(&p, &r);
  assert_near(r.best[0], 0.3, 1e-4);
  assert_near(r.best[1], 0.7, 1e-4);
  assert_near(r.best[2], 0.3, 1e-4);
  assert_true(r.evaluations <= 500 && r.evaluations == calls);
}

static void nelder_mead_follows_rosenbrocks_valley(void **state)
{
  (void)state;
  fbFitProblem p = {2, rosenbrock, NULL, 2000, 1};
  fbFitResult r;
  fbFitNelderMead_Minimise(&p, &r);
  assert_near(r.best[0], 0.75, 1e-3);
  assert_near(r.best[1], 0.75, 2e-3);
  assert_true(r.best_f < 1e-4);
}

static void nelder_mead_keeps_to_its_budget(void **state)
{
  (void)state;
  long calls = 0;
  fbFitProblem p = {2, quadratic, &calls, 20, 1};
  fbFitResult r;
  fbFitNelderMead_Minimise(&p, &r);
  assert_true(calls <= 20);
}

static void cmaes_finds_a_quadratic_minimum(void **state)
{
  (void)state;
  long calls = 0;
  fbFitProblem p = {4, quadratic, &calls, 3000, 7};
  fbFitResult r;
  fbFitCmaes_Minimise(&p, &r);
  for (int i = 0; i < 4; ++i) {
    assert_near(r.best[i], i % 2 == 0 ? 0.3 : 0.7, 1e-3);
  }
  assert_true(calls <= 3000 && calls % fbFitCmaes_Lambda(4) == 0);
}

static void cmaes_follows_rosenbrocks_valley(void **state)
{
  (void)state;
  fbFitProblem p = {2, rosenbrock, NULL, 4000, 3};
  fbFitResult r;
  fbFitCmaes_Minimise(&p, &r);
  assert_near(r.best[0], 0.75, 1e-3);
  assert_near(r.best[1], 0.75, 2e-3);
}

static void cmaes_is_the_same_for_the_same_seed(void **state)
{
  (void)state;
  fbFitProblem p = {2, rosenbrock, NULL, 300, 11};
  fbFitResult a, b;
  fbFitCmaes_Minimise(&p, &a);
  fbFitCmaes_Minimise(&p, &b);
  assert_memory_equal(a.best, b.best, sizeof a.best);
}

/*
 * A conjugate check: theta uniform on [0, 1], one observation y ~ N(theta, 0.05^2), observed
 * y = 0.5. The posterior is N(0.5, 0.05^2) (its truncation to [0, 1] is 10 standard deviations
 * away), so its 90 % interval is 0.5 -+ 1.645 * 0.05 = [0.418, 0.582]. ABC's posterior is that
 * widened by the tolerance: for eps << 0.05 it is close.
 */
typedef struct normal_model {
  fbFitRandom rng;
} normal_model;

static bool normal_distance(void *ctx, const double *x, int n, int dim, double *f)
{
  normal_model *m = ctx;
  for (int k = 0; k < n; ++k) {
    double y = x[k * dim] + 0.05 * fbFitRandom_Normal(&m->rng);
    f[k] = (y - 0.5) * (y - 0.5);
  }
  return true;
}

static void expect_normal_posterior(const fbFitPosterior *post)
{
  double lo = fbFitPosterior_Quantile(post, 0, 0.05), hi = fbFitPosterior_Quantile(post, 0, 0.95);
  assert_near(fbFitPosterior_Mean(post, 0), 0.5, 0.015);
  assert_near(lo, 0.418, 0.03);
  assert_near(hi, 0.582, 0.03);
}

static void abc_rejection_gives_the_conjugate_posterior(void **state)
{
  (void)state;
  normal_model m = {{99, 0}};
  fbFitProblem p = {1, normal_distance, &m, 10000, 5};
  fbFitAbcOptions o = {400, 0.04};
  fbFitResult best;
  fbFitPosterior post;
  fbFitAbc_Rejection(&p, &o, &best, &post);
  assert_int_equal(post.count, 400);
  assert_true(post.tolerance < 0.03);
  expect_normal_posterior(&post);
  fbFitPosterior_Free(&post);
}

static void abc_smc_narrows_to_the_conjugate_posterior(void **state)
{
  (void)state;
  normal_model m = {{98, 0}};
  fbFitProblem p = {1, normal_distance, &m, 8000, 6};
  fbFitAbcOptions o = {400, 0.5};
  fbFitResult best;
  fbFitPosterior post;
  fbFitAbc_Smc(&p, &o, &best, &post);
  assert_int_equal(post.count, 400);
  assert_true(post.generations >= 4);
  assert_true(post.tolerance < 0.03);
  assert_true(best.evaluations <= 8000);
  expect_normal_posterior(&post);
  fbFitPosterior_Free(&post);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(reflection_folds_into_the_box),
      cmocka_unit_test(nelder_mead_finds_a_quadratic_minimum),
      cmocka_unit_test(nelder_mead_follows_rosenbrocks_valley),
      cmocka_unit_test(nelder_mead_keeps_to_its_budget),
      cmocka_unit_test(cmaes_finds_a_quadratic_minimum),
      cmocka_unit_test(cmaes_follows_rosenbrocks_valley),
      cmocka_unit_test(cmaes_is_the_same_for_the_same_seed),
      cmocka_unit_test(abc_rejection_gives_the_conjugate_posterior),
      cmocka_unit_test(abc_smc_narrows_to_the_conjugate_posterior),
  };
  return fb_run_tests(tests);
}
