// test_sensitivity.c — Latin hypercube and Morris designs keep their definitions, and find which factor of a known function matters.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "sensitivity.h"

// y = x1 + 0.1 x2 (+ 0 x3): x1 matters, x2 a tenth as much, x3 not at all.
static double known(const double *x) { return x[0] + 0.1 * x[1]; }

static double *evaluate(const fbDesign *d, double (*f)(const double *))
{
  double *y = malloc(sizeof *y * (size_t)d->points);
  for (long p = 0; p < d->points; ++p) {
    y[p] = f(d->u + p * d->factors);
  }
  return y;
}

// Every axis: exactly one point in each of the n slices.
static void test_latin_hypercube_fills_every_slice_once(void **state)
{
  (void)state;
  fbDesign d;
  fbDesign_LatinHypercube(&d, 3, 50, 7);
  assert_int_equal(d.points, 50);
  for (int j = 0; j < 3; ++j) {
    int seen[50] = {0};
    for (long p = 0; p < 50; ++p) {
      double u = d.u[p * 3 + j];
      assert_true(u >= 0 && u < 1);
      seen[(int)(u * 50)]++;
    }
    for (int s = 0; s < 50; ++s) {
      assert_int_equal(seen[s], 1);
    }
  }
  fbDesign e;
  fbDesign_LatinHypercube(&e, 3, 50, 7);  // a pure function of its seed
  for (long i = 0; i < 150; ++i) {
    assert_true(d.u[i] == e.u[i]);
  }
  fbDesign_Free(&e);
  fbDesign_Free(&d);
}

static void test_latin_hypercube_ranks_the_factors(void **state)
{
  (void)state;
  fbDesign d;
  fbDesign_LatinHypercube(&d, 3, 200, 1);
  double *y = evaluate(&d, known);
  fbSensitivity s[3];
  fbDesign_Analyse(&d, y, s);
  assert_true(s[0].rho > 0.95);
  assert_true(s[1].rho > 0.0 && s[1].rho < 0.3);
  assert_true(fabs(s[2].rho) < 0.2);
  assert_int_equal(s[0].used, 200);
  free(y);
  fbDesign_Free(&d);
}

// Each trajectory changes one factor at a time by delta; the effects of a linear function are its
// coefficients exactly: mu* = (1, 0.1, 0), sigma = 0.
static void test_morris_finds_the_coefficients(void **state)
{
  (void)state;
  fbDesign d;
  fbDesign_Morris(&d, 3, 10, 4, 3);
  assert_int_equal(d.points, 40);
  assert_true(fabs(d.delta - 4.0 / 6.0) < 1e-15);
  for (long p = 0; p + 1 < d.points; ++p) {
    if ((p + 1) % 4 == 0) {
      continue;  // the next trajectory starts anew
    }
    int changed = 0;
    for (int j = 0; j < 3; ++j) {
      double step = fabs(d.u[(p + 1) * 3 + j] - d.u[p * 3 + j]);
      changed += step > 0;
      assert_true(step == 0 || fabs(step - d.delta) < 1e-12);
      assert_true(d.u[p * 3 + j] >= 0 && d.u[p * 3 + j] <= 1 + 1e-12);
    }
    assert_int_equal(changed, 1);
  }
  double *y = evaluate(&d, known);
  fbSensitivity s[3];
  fbDesign_Analyse(&d, y, s);
  assert_true(fabs(s[0].mu_star - 1.0) < 1e-9 && fabs(s[0].mu - 1.0) < 1e-9 && s[0].sigma < 1e-9);
  assert_true(fabs(s[1].mu_star - 0.1) < 1e-9);
  assert_true(s[2].mu_star < 1e-12);
  assert_int_equal(s[0].used, 10);
  free(y);
  fbDesign_Free(&d);
}

// y = x1 x2: x1's effect depends on x2, so its sigma is large; a NaN run drops its effects only.
static double product(const double *x) { return x[0] * x[1]; }

static void test_morris_sigma_shows_interaction(void **state)
{
  (void)state;
  fbDesign d;
  fbDesign_Morris(&d, 2, 20, 4, 5);
  double *y = evaluate(&d, product);
  fbSensitivity s[2];
  fbDesign_Analyse(&d, y, s);
  assert_true(s[0].sigma > 0.1 && s[1].sigma > 0.1);
  y[0] = NAN;
  fbDesign_Analyse(&d, y, s);
  assert_true(s[0].used + s[1].used == 39);
  assert_true(isfinite(s[0].mu_star) && isfinite(s[1].mu_star));
  free(y);
  fbDesign_Free(&d);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_latin_hypercube_fills_every_slice_once),
      cmocka_unit_test(test_latin_hypercube_ranks_the_factors),
      cmocka_unit_test(test_morris_finds_the_coefficients),
      cmocka_unit_test(test_morris_sigma_shows_interaction),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
