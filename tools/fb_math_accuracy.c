// fb_math_accuracy.c — fb_math against the C library: the largest ulp distance over 10^6 arguments per range, and ns per call.
// From the source root (docs/reliability.md, "Same bits in the page and on the desktop"):
//   cc -O2 -ffp-contract=off -Isrc/engine/base tools/fb_math_accuracy.c src/engine/base/fb_math.c -lm -o /tmp/fb_math_accuracy && /tmp/fb_math_accuracy
// The times are CPU time over 2 * 10^6 calls: a rough comparison on one machine, not a benchmark.
#include "fb_math.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
static uint64_t st = 0x9e3779b97f4a7c15ULL;
static uint64_t next(void) {
  st ^= st << 13;
  st ^= st >> 7;
  st ^= st << 17;
  return st;
}
static double uni(double a, double b) {
  return a + (b - a) * ((next() >> 11) * 0x1p-53);
}
static double logu(double a, double b) { return exp(uni(log(a), log(b))); }
static int64_t ord(double d) {
  int64_t i;
  memcpy(&i, &d, 8);
  return i < 0 ? INT64_MIN - i : i;
}
static double ulps(double a, double b) {
  if (isnan(a) && isnan(b))
    return 0;
  if (a == b)
    return 0;
  int64_t d = ord(a) - ord(b);
  return (double)(d < 0 ? -d : d);
}
typedef double (*f1)(double);
typedef double (*f2)(double, double);
static void t1(const char *name, f1 f, f1 g, double lo, double hi, int logscale,
               int sym) {
  double mx = 0, arg = 0;
  int n = 1000000;
  for (int i = 0; i < n; i++) {
    double x = logscale ? logu(lo, hi) : uni(lo, hi);
    if (sym && (next() & 1))
      x = -x;
    double u = ulps(f(x), g(x));
    if (u > mx) {
      mx = u;
      arg = x;
    }
  }
  volatile double sink = 0;
  double xs[1000];
  for (int i = 0; i < 1000; i++) {
    xs[i] = logscale ? logu(lo, hi) : uni(lo, hi);
  }
  clock_t c0 = clock();
  for (int r = 0; r < 2000; r++)
    for (int i = 0; i < 1000; i++)
      sink += f(xs[i]);
  clock_t c1 = clock();
  for (int r = 0; r < 2000; r++)
    for (int i = 0; i < 1000; i++)
      sink += g(xs[i]);
  clock_t c2 = clock();
  printf("%-8s [%-9g,%9g]%s max %3.0f ulp at %-24.17g  fb %5.1f ns  glibc "
         "%5.1f ns\n",
         name, lo, hi, logscale ? " log" : "    ", mx, arg,
         (c1 - c0) * 1e9 / CLOCKS_PER_SEC / 2e6,
         (c2 - c1) * 1e9 / CLOCKS_PER_SEC / 2e6);
}
static void t2(const char *name, f2 f, f2 g, double xlo, double xhi, double ylo,
               double yhi, int sym) {
  double mx = 0, ax = 0, ay = 0;
  int n = 1000000;
  for (int i = 0; i < n; i++) {
    double x = uni(xlo, xhi), y = uni(ylo, yhi);
    if (sym) {
      if (next() & 1)
        x = -x;
      if (next() & 1)
        y = -y;
    }
    double u = ulps(f(x, y), g(x, y));
    if (u > mx) {
      mx = u;
      ax = x;
      ay = y;
    }
  }
  volatile double sink = 0;
  double xs[1000], ys[1000];
  for (int i = 0; i < 1000; i++) {
    xs[i] = uni(xlo, xhi);
    ys[i] = uni(ylo, yhi);
  }
  clock_t c0 = clock();
  for (int r = 0; r < 2000; r++)
    for (int i = 0; i < 1000; i++)
      sink += f(xs[i], ys[i]);
  clock_t c1 = clock();
  for (int r = 0; r < 2000; r++)
    for (int i = 0; i < 1000; i++)
      sink += g(xs[i], ys[i]);
  clock_t c2 = clock();
  printf("%-8s x[%g,%g] y[%g,%g] max %3.0f ulp at (%.17g, %.17g)  fb %5.1f ns  "
         "glibc %5.1f ns\n",
         name, xlo, xhi, ylo, yhi, mx, ax, ay,
         (c1 - c0) * 1e9 / CLOCKS_PER_SEC / 2e6,
         (c2 - c1) * 1e9 / CLOCKS_PER_SEC / 2e6);
}
int main(void) {
  t1("sin", fbMath_Sin, sin, -10, 10, 0, 0);
  t1("sin", fbMath_Sin, sin, 1e-10, 1e6, 1, 1);
  t1("cos", fbMath_Cos, cos, -10, 10, 0, 0);
  t1("cos", fbMath_Cos, cos, 1e-10, 1e6, 1, 1);
  t1("sin", fbMath_Sin, sin, 1e6, 1e15, 1, 1);
  t1("cos", fbMath_Cos, cos, 1e6, 1e15, 1, 1);
  t1("tan", fbMath_Tan, tan, -10, 10, 0, 0);
  t1("tan", fbMath_Tan, tan, 1e-10, 1e6, 1, 1);
  t1("atan", fbMath_Atan, atan, -4, 4, 0, 0);
  t1("atan", fbMath_Atan, atan, 1e-10, 1e10, 1, 1);
  t1("asin", fbMath_Asin, asin, -1, 1, 0, 0);
  t1("asin", fbMath_Asin, asin, 1e-10, 1, 1, 1);
  t1("acos", fbMath_Acos, acos, -1, 1, 0, 0);
  t1("exp", fbMath_Exp, exp, -745, 709.7, 0, 0);
  t1("exp", fbMath_Exp, exp, -5, 5, 0, 0);
  t1("expm1", fbMath_Expm1, expm1, -40, 40, 0, 0);
  t1("expm1", fbMath_Expm1, expm1, 1e-10, 2, 1, 1);
  t1("log", fbMath_Log, log, 1e-300, 1e300, 1, 0);
  t1("log", fbMath_Log, log, 0.5, 2, 0, 0);
  t1("log2", fbMath_Log2, log2, 1e-300, 1e300, 1, 0);
  t1("log2", fbMath_Log2, log2, 0.5, 2, 0, 0);
  t1("log10", fbMath_Log10, log10, 1e-300, 1e300, 1, 0);
  t1("log10", fbMath_Log10, log10, 0.5, 2, 0, 0);
  t1("sinh", fbMath_Sinh, sinh, -20, 20, 0, 0);
  t1("cosh", fbMath_Cosh, cosh, -20, 20, 0, 0);
  t1("tanh", fbMath_Tanh, tanh, -20, 20, 0, 0);
  t1("sinh", fbMath_Sinh, sinh, 1e-10, 700, 1, 1);
  t2("atan2", fbMath_Atan2, atan2, 0, 100, 0, 100, 1);
  t2("atan2", fbMath_Atan2, atan2, 0, 1e-3, 0, 1e3, 1);
  t2("hypot", fbMath_Hypot, hypot, 0, 100, 0, 100, 1);
  t2("pow", fbMath_Pow, pow, 0, 100, -10, 10, 0);
  t2("pow", fbMath_Pow, pow, 0.5, 2, -1000, 1000, 0);
  t2("pow", fbMath_Pow, pow, 0, 1e6, 0, 50, 0);
  return 0;
}
