// fb_math.c — sin, exp, log, pow ... from + - * / and sqrt only: the same bits on every platform.
#include "fb_math.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__FAST_MATH__)
#error "fb_math.c must not be built with -ffast-math: its sums are written in the order their rounding needs"
#endif

/*
 * Rules that keep every result identical across compilers and C libraries (fb_math.h):
 * - only + - * / and sqrt round, and IEEE 754 rounds them exactly; floor, fabs, fmod and the
 *   bit manipulations below are exact;
 * - this file is compiled with -ffp-contract=off (CMakeLists.txt), so a*b + c is never fused
 *   into one rounding on a machine that has FMA; nothing is built with -ffast-math, so the
 *   compiler never reassociates (a + b) - a;
 * - the constants are hexadecimal literals, read exactly by every compiler. They were computed
 *   with mpmath at 300 bits (the split constants: the leading bits of the value, then the rest);
 *   the series coefficients are the correctly rounded Taylor coefficients (1/n!, 2/(2n+1), ...).
 * Polynomials are the Taylor series, cut where the next term is below 2^-56 of the result on the
 * reduced interval; the reductions keep each interval small enough for that to take few terms.
 */

#define QNAN (__builtin_nan(""))  // one NaN (positive, quiet) for every domain error

static const double PIO2_HI = 0x1.921fb54442d18p+0, PIO2_LO = 0x1.1a62633145c07p-54;  // pi/2 = HI + LO
static const double PI_HI = 0x1.921fb54442d18p+1, PI_LO = 0x1.1a62633145c07p-53;
static const double LN2_HI = 0x1.62e42fefa3800p-1, LN2_LO = 0x1.ef35793c76730p-45;  // HI: 42 bits
static const double INV_LN2 = 0x1.71547652b82fep+0;
static const double INV_LN2_HI = 0x1.71547652b82fep+0, INV_LN2_LO = 0x1.777d0ffda0d24p-56;
static const double INV_LN10_HI = 0x1.bcb7b1526e50ep-2, INV_LN10_LO = 0x1.95355baaafad3p-57;

// ---------------------------------------------------------------------------------------------
// Exact arithmetic on pairs (Dekker 1971; Knuth, TAOCP vol. 2, 4.2.2): a + b and a * b as a
// rounded value plus its exact error, so that a few steps can carry twice the precision.

static void two_sum(double a, double b, double *sum, double *err)
{
  double s = a + b, bb = s - a;
  *sum = s;
  *err = (a - (s - bb)) + (b - bb);
}

static void fast_two_sum(double a, double b, double *sum, double *err)  // |a| >= |b|
{
  double s = a + b;
  *sum = s;
  *err = b - (s - a);
}

// Veltkamp's split: a = hi + lo with 26 bits in hi, so that products of halves are exact.
static void split(double a, double *hi, double *lo)
{
  double c = 0x1.0000002p+27 * a;  // 2^27 + 1
  double h = c - (c - a);
  *hi = h;
  *lo = a - h;
}

static void two_prod(double a, double b, double *prod, double *err)  // |a|, |b| < 2^995
{
  double ah, al, bh, bl, p = a * b;
  split(a, &ah, &al);
  split(b, &bh, &bl);
  *prod = p;
  *err = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

static double horner(const double *c, int n, double z)
{
  double h = c[n - 1];
  for (int i = n - 2; i >= 0; --i) {
    h = c[i] + z * h;
  }
  return h;
}

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

// 2^k * y with one rounding at most (in the subnormal range), without ldexp.
static double pow2(int k)  // -1022 <= k <= 1023
{
  uint64_t bits = (uint64_t)(k + 1023) << 52;
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

static double scale2(double y, int k)  // y in [1/2, 2], -1100 < k < 1100
{
  if (k < -1021) {
    return (y * pow2(k + 600)) * 0x1p-600;  // exact, then the only rounding
  }
  if (k > 1023) {
    return (y * pow2(k - 600)) * 0x1p600;
  }
  return y * pow2(k);
}

// ---------------------------------------------------------------------------------------------
// (-1)^n / (2n+1)!, n = 1..9: sin r = r + r z (SIN_C[0] + z SIN_C[1] + ...), z = r^2
static const double SIN_C[] = {
    -0x1.5555555555555p-3, 0x1.1111111111111p-7, -0x1.a01a01a01a01ap-13, 0x1.71de3a556c734p-19,
    -0x1.ae64567f544e4p-26, 0x1.6124613a86d09p-33, -0x1.ae7f3e733b81fp-41, 0x1.952c77030ad4ap-49,
    -0x1.2f49b46814157p-57,
};
// (-1)^n / (2n)!, n = 2..10: cos r = 1 - z/2 + z^2 (COS_C[0] + z COS_C[1] + ...)
static const double COS_C[] = {
    0x1.5555555555555p-5, -0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-16, -0x1.27e4fb7789f5cp-22,
    0x1.1eed8eff8d898p-29, -0x1.93974a8c07c9dp-37, 0x1.ae7f3e733b81fp-45, -0x1.6827863b97d97p-53,
    0x1.e542ba4020225p-62,
};

/*
 * Argument reduction for sin, cos, tan (Cody and Waite, "Software Manual for the Elementary
 * Functions", 1980, ch. 8): x = k pi/2 + r with k the integer nearest x 2/pi and |r| <= pi/4,
 * r carried as hi + lo. pi/2 = P1 + P2 + P3 with 33, 33 and 53 bits (119 bits in all):
 * - |k| < 2^20 (|x| < 1.6e6): k P1 and k P2 are exact (20 + 33 bits), x - k P1 is exact
 *   (Sterbenz: both within a factor 2), and the rest is summed with its error, so r is within
 *   about |k| 2^-120 of the truth: every result within 1 ulp (measured);
 * - 2^20 <= |k| < 2^50: the same with the products split exactly (two_prod): the error is
 *   |k| 2^-120 still, but x 2/pi is rounded, so k may be one off the nearest and |r| up to
 *   pi/4 + 1/8, which the series still cover;
 * - |x| >= 2^50 (one ulp of x is a quarter of a radian or more: the argument has no phase left):
 *   x is first taken modulo the double nearest 2 pi with fmod (exact, but of a period 2.4e-16
 *   off): deterministic, not accurate.
 * Returns k mod 4.
 */
static const double PIO2_1 = 0x1.921fb54400000p+0, PIO2_2 = 0x1.0b4611a600000p-34,
                    PIO2_3 = 0x1.3198a2e037073p-69;
static const double TWO_OVER_PI = 0x1.45f306dc9c883p-1;

static int reduce_pio2(double x, double *hi, double *lo)
{
  if (fabs(x) <= 0x1.921fb54442d18p-1) {
    *hi = x;
    *lo = 0.0;
    return 0;
  }
  if (fabs(x) >= 0x1p50) {
    x = fmod(x, 2.0 * PI_HI);
  }
  double k = floor(x * TWO_OVER_PI + 0.5);
  double h, l;
  if (fabs(k) < 0x1p20) {
    double y = x - k * PIO2_1;
    two_sum(y, -(k * PIO2_2), &h, &l);
    l -= k * PIO2_3;
  } else {
    double p1, e1, p2, e2;
    two_prod(k, PIO2_1, &p1, &e1);
    two_prod(k, PIO2_2, &p2, &e2);
    double y = x - p1, t;  // exact (Sterbenz)
    two_sum(y, -p2, &h, &l);
    two_sum(h, -e1, &h, &t);  // e1 is up to half an ulp of x: it must not round into l
    l += t - (e2 + k * PIO2_3);
  }
  fast_two_sum(h, l, hi, lo);
  return (int)(k - 4.0 * floor(k * 0.25));
}

/*
 * On |r| <= pi/4 + 1/8: sin(r + lo) = sin r + lo cos r, with lo below half an ulp of r, so
 * lo (1 - r^2/2) ~ lo. cos r = 1 - z/2 + z^2 C(z) is summed as w = 1 - z/2 (rounded) plus what
 * that rounding lost, (1 - w) - z/2 (1 - w exact, Sterbenz), and cos(r + lo) = cos r - lo r.
 * Truncation: z^10 / 21! and z^11 / 22! are below 2^-58 on this interval.
 */
static double sin_reduced(double r, double lo)
{
  double z = r * r;
  return r + (r * z * horner(SIN_C, COUNT(SIN_C), z) + lo);
}

static double cos_reduced(double r, double lo)
{
  double z = r * r, hz = 0.5 * z, w = 1.0 - hz;
  return w + (((1.0 - w) - hz) + (z * z * horner(COS_C, COUNT(COS_C), z) - r * lo));
}

void fbMath_SinCos(double x, double *sin_x, double *cos_x)
{
  if (isnan(x) || isinf(x)) {
    *sin_x = *cos_x = isnan(x) ? x : QNAN;
    return;
  }
  if (fabs(x) < 0x1p-27) {  // sin x = x (x^2/6 below half an ulp), cos x = 1, signed zero kept
    *sin_x = x;
    *cos_x = 1.0;
    return;
  }
  double hi, lo;
  int quadrant = reduce_pio2(x, &hi, &lo);
  double s = sin_reduced(hi, lo), c = cos_reduced(hi, lo);
  switch (quadrant) {
  case 0: *sin_x = s, *cos_x = c; break;
  case 1: *sin_x = c, *cos_x = -s; break;
  case 2: *sin_x = -s, *cos_x = -c; break;
  default: *sin_x = -c, *cos_x = s; break;
  }
}

double fbMath_Sin(double x)
{
  if (isnan(x) || isinf(x)) {
    return isnan(x) ? x : QNAN;
  }
  if (fabs(x) < 0x1p-27) {
    return x;
  }
  double hi, lo;
  switch (reduce_pio2(x, &hi, &lo)) {
  case 0: return sin_reduced(hi, lo);
  case 1: return cos_reduced(hi, lo);
  case 2: return -sin_reduced(hi, lo);
  default: return -cos_reduced(hi, lo);
  }
}

double fbMath_Cos(double x)
{
  if (isnan(x) || isinf(x)) {
    return isnan(x) ? x : QNAN;
  }
  if (fabs(x) < 0x1p-27) {
    return 1.0;
  }
  double hi, lo;
  switch (reduce_pio2(x, &hi, &lo)) {
  case 0: return cos_reduced(hi, lo);
  case 1: return -sin_reduced(hi, lo);
  case 2: return -cos_reduced(hi, lo);
  default: return sin_reduced(hi, lo);
  }
}

// tan = sin / cos on the reduced argument, and -cos / sin in the odd quadrants (tan(r + pi/2)
// = -cot r): two results within an ulp and one division.
double fbMath_Tan(double x)
{
  if (isnan(x) || isinf(x)) {
    return isnan(x) ? x : QNAN;
  }
  if (fabs(x) < 0x1p-27) {  // tan x = x + x^3/3: the cube is below half an ulp
    return x;
  }
  double hi, lo;
  int quadrant = reduce_pio2(x, &hi, &lo);
  double s = sin_reduced(hi, lo), c = cos_reduced(hi, lo);
  return (quadrant & 1) ? -c / s : s / c;
}

// ---------------------------------------------------------------------------------------------
// (-1)^n / (2n+1), n = 1..8: atan t = t + t z (ATAN_C[0] + z ATAN_C[1] + ...)
static const double ATAN_C[] = {
    -0x1.5555555555555p-2, 0x1.999999999999ap-3, -0x1.2492492492492p-3, 0x1.c71c71c71c71cp-4,
    -0x1.745d1745d1746p-4, 0x1.3b13b13b13b14p-4, -0x1.1111111111111p-4, 0x1.e1e1e1e1e1e1ep-5,
};
// atan(i/8) = HI + LO, i = 0..8, and pi/2 - atan(i/8) = HI + LO (mpmath, 300 bits)
static const double ATAN_HI[] = {
    0x0.0p+0, 0x1.fd5ba9aac2f6ep-4, 0x1.f5b75f92c80ddp-3, 0x1.6f61941e4def1p-2, 0x1.dac670561bb4fp-2,
    0x1.1e00babdefeb4p-1, 0x1.4978fa3269ee1p-1, 0x1.700a7c5784634p-1, 0x1.921fb54442d18p-1};
static const double ATAN_LO[] = {
    0x0.0p+0, -0x1.cd37686760c17p-59, 0x1.8ab6e3cf7afbdp-57, -0x1.c63aae6f6e918p-56, 0x1.a2b7f222f65e2p-56,
    -0x1.928df287a668fp-58, 0x1.2419a87f2a458p-56, -0x1.8c34d25aadef6p-56, 0x1.1a62633145c07p-55};
static const double ACOT_HI[] = {
    0x1.921fb54442d18p+0, 0x1.7249faa996a21p+0, 0x1.5368c951e9cfdp+0, 0x1.3647503caf55cp+0, 0x1.1b6e192ebbe44p+0,
    0x1.031f57e54adbep+0, 0x1.dac670561bb4fp-1, 0x1.b434ee31013fdp-1, 0x1.921fb54442d18p-1};
static const double ACOT_LO[] = {
    0x1.1a62633145c07p-54, 0x1.a8cc1e7480c68p-54, -0x1.96f47948a99f1p-54, 0x1.17e21d9a42c9ap-55,
    0x1.b1b466a88828ep-54, 0x1.338b4259c0270p-54, 0x1.a2b7f222f65e2p-55, -0x1.0520d0701d877p-55,
    0x1.1a62633145c07p-55};

/*
 * atan of a >= 0 (plus a small correction da to a, from atan2's division), by the addition
 * formula atan a = atan c + atan((a - c) / (1 + a c)) with c = i/8 the nearest eighth:
 * |t| <= 1/16, where the series needs 8 terms for 2^-58. a - c is exact (Sterbenz). For a > 1,
 * atan a = pi/2 - atan(1/a), and with c the eighth nearest 1/a, t = (1/a - c) / (1 + c/a) =
 * (1 - c a) / (a + c), which needs no rounded 1/a. The constants carry 106 bits, so the sums
 * round once, at the end. A correction da to a moves the result by da / (1 + a^2).
 */
static double atan_positive(double a, double da)
{
  if (a <= 1.0) {
    int i = (int)(a * 8.0 + 0.5);
    double c = i * 0.125, t = (a - c) / (1.0 + a * c), z = t * t;
    double small = t * z * horner(ATAN_C, COUNT(ATAN_C), z) + ATAN_LO[i] + da / (1.0 + a * a);
    return ATAN_HI[i] + (t + small);
  }
  int i = (int)(8.0 / a + 0.5);
  double c = i * 0.125, t = i == 0 ? 1.0 / a : (1.0 - c * a) / (a + c), z = t * t;  // 0 at a = inf
  double small = t * z * horner(ATAN_C, COUNT(ATAN_C), z) - ACOT_LO[i] - da / (1.0 + a * a);
  return ACOT_HI[i] - (t + small);
}

double fbMath_Atan(double x)
{
  if (isnan(x)) {
    return x;
  }
  if (fabs(x) < 0x1p-27) {  // atan x = x - x^3/3: the cube is below half an ulp
    return x;
  }
  return copysign(atan_positive(fabs(x), 0.0), x);
}

/*
 * atan2(y, x): the angle of (x, y) from the ratio of the smaller to the larger of |x|, |y|,
 * q = small / large, kept with its rounding error dq = (small - q large) / large (q large
 * exact by two_prod), then placed in its octant: atan q, pi/2 - atan q, pi/2 + atan q,
 * pi - atan q, with pi and pi/2 in two parts. The signs and the zeros and infinities as C99
 * Annex F (F.9.1.4).
 */
static double atan2_finite(double ay, double ax, int x_negative)
{
  int steep = ay > ax;
  double small = steep ? ax : ay, large = steep ? ay : ax;
  double q = small / large, dq = 0.0;
  if (large < 0x1p900 && small > 0x1p-900 && q > 0x1p-900) {
    double p, e;
    two_prod(q, large, &p, &e);
    dq = ((small - p) - e) / large;
  }
  double a = atan_positive(q, dq);
  if (!steep) {
    return x_negative ? PI_HI - (a - PI_LO) : a;
  }
  return x_negative ? PIO2_HI + (a + PIO2_LO) : PIO2_HI - (a - PIO2_LO);
}

double fbMath_Atan2(double y, double x)
{
  if (isnan(x) || isnan(y)) {
    return isnan(y) ? y : x;
  }
  int x_negative = signbit(x) != 0;
  double r;
  if (y == 0.0) {
    r = x_negative ? PI_HI : 0.0;
  } else if (isinf(y)) {
    r = isinf(x) ? (x_negative ? 0x1.2d97c7f3321d2p+1 : 0x1.921fb54442d18p-1) : PIO2_HI;  // 3pi/4, pi/4
  } else if (isinf(x)) {
    r = x_negative ? PI_HI : 0.0;
  } else if (x == 0.0) {
    r = PIO2_HI;
  } else {
    r = atan2_finite(fabs(y), fabs(x), x_negative);
  }
  return copysign(r, y);
}

// ---------------------------------------------------------------------------------------------
// (2n)! / (4^n (n!)^2 (2n+1)), n = 1..24: asin x = x + x z (ASIN_C[0] + z ASIN_C[1] + ...)
static const double ASIN_C[] = {
    0x1.5555555555555p-3, 0x1.3333333333333p-4, 0x1.6db6db6db6db7p-5, 0x1.f1c71c71c71c7p-6,
    0x1.6e8ba2e8ba2e9p-6, 0x1.1c4ec4ec4ec4fp-6, 0x1.c99999999999ap-7, 0x1.7a87878787878p-7,
    0x1.3fde50d79435ep-7, 0x1.12ef3cf3cf3cfp-7, 0x1.df3bd37a6f4dfp-8, 0x1.a6863d70a3d71p-8,
    0x1.782dda12f684cp-8, 0x1.51ba308d3dcb1p-8, 0x1.31683bdef7bdfp-8, 0x1.15ee9d45d1746p-8,
    0x1.fcaf8fb6db6dbp-9, 0x1.d3d2a8e0dd67dp-9, 0x1.b026f57b13b14p-9, 0x1.90cb77f60c7cep-9,
    0x1.750de64d7d05fp-9, 0x1.5c5f56efaaaabp-9, 0x1.464c0950f7d47p-9, 0x1.3275586c5f2f0p-9,
};

/*
 * asin and acos. On |x| <= 1/2 the series of asin (Abramowitz and Stegun 4.4.40) needs 24
 * terms for 2^-56 (z = x^2 <= 1/4). Beyond, the half-angle identity asin a = pi/2 - 2 asin s,
 * s = sqrt((1 - a)/2) <= 1/2: 1 - a is exact (Sterbenz), so w = s^2 is exact and serves as the
 * series' z, and s is carried with its rounding error, s_lo = (w - s^2) / (2 s) (s^2 exact by
 * two_prod). acos x = pi/2 - asin x near 0, 2 asin s for x > 1/2, pi - 2 asin s for x < -1/2.
 */
static double asin_series_rest(double x, double z)  // asin x - x, for z = x^2 <= 1/4
{
  return x * z * horner(ASIN_C, COUNT(ASIN_C), z);
}

// asin(sqrt(w)) - sqrt_rounded, with s = sqrt_rounded returned through *s.
static double asin_of_root(double w, double *s)
{
  double r = sqrt(w), sq, sq_err;
  two_prod(r, r, &sq, &sq_err);
  double r_lo = w > 0.0 ? ((w - sq) - sq_err) / (2.0 * r) : 0.0;
  *s = r;
  return asin_series_rest(r, w) + r_lo;
}

double fbMath_Asin(double x)
{
  if (isnan(x)) {
    return x;
  }
  double a = fabs(x);
  if (a > 1.0) {
    return QNAN;
  }
  if (a < 0x1p-27) {
    return x;
  }
  if (a <= 0.5) {
    return x + asin_series_rest(x, x * x);
  }
  double s, rest = asin_of_root((1.0 - a) * 0.5, &s);
  double r = (PIO2_HI - 2.0 * s) + (PIO2_LO - 2.0 * rest);
  return copysign(r, x);
}

double fbMath_Acos(double x)
{
  if (isnan(x)) {
    return x;
  }
  if (fabs(x) > 1.0) {
    return QNAN;
  }
  if (fabs(x) <= 0.5) {
    return PIO2_HI - (x + (asin_series_rest(x, x * x) - PIO2_LO));
  }
  double s, rest;
  if (x > 0.0) {
    rest = asin_of_root((1.0 - x) * 0.5, &s);
    return 2.0 * s + 2.0 * rest;
  }
  rest = asin_of_root((1.0 + x) * 0.5, &s);
  return (PI_HI - 2.0 * s) + (PI_LO - 2.0 * rest);
}

// ---------------------------------------------------------------------------------------------
// 1 / n!, n = 2..15: e^r - 1 = r + r^2 (EXPM1_C[0] + r EXPM1_C[1] + ...)
static const double EXPM1_C[] = {
    0x1.0000000000000p-1, 0x1.5555555555555p-3, 0x1.5555555555555p-5, 0x1.1111111111111p-7,
    0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-13, 0x1.a01a01a01a01ap-16, 0x1.71de3a556c734p-19,
    0x1.27e4fb7789f5cp-22, 0x1.ae64567f544e4p-26, 0x1.1eed8eff8d898p-29, 0x1.6124613a86d09p-33,
    0x1.93974a8c07c9dp-37, 0x1.ae7f3e733b81fp-41,
};

/*
 * exp and expm1 (Cody and Waite, ch. 6): x = k ln2 + r with k the integer nearest x / ln2 and
 * |r| <= ln2/2 + tiny, e^x = 2^k e^r. ln2 = HI + LO with 42 bits in HI, so k HI is exact for
 * |k| < 2^11 and x - k HI is exact (Sterbenz); r is kept as r + r_lo. e^r - 1 is its Taylor
 * series (|r| <= 0.35: 15 terms for 2^-57). 2^k is put into the exponent bits (scale2), not by
 * ldexp. exp_parts also takes a low part x_lo of x, for pow.
 */
static double expm1_reduced(double r, double r_lo)  // e^(r + r_lo) - 1, |r| <= 0.36
{
  return r + (r * r * horner(EXPM1_C, COUNT(EXPM1_C), r) + r_lo * (1.0 + r));
}

static int reduce_ln2(double x, double x_lo, double *r, double *r_lo)
{
  double k = floor(x * INV_LN2 + 0.5);
  double y = x - k * LN2_HI, t = k * LN2_LO;
  double h = y - t;
  two_sum(h, ((y - h) - t) + x_lo, r, r_lo);  // r_lo below half an ulp of r: e^r_lo = 1 + r_lo
  return (int)k;
}

static double exp_parts(double x, double x_lo)
{
  if (x > 0x1.62e42fefa39fp+9) {  // above log(DBL_MAX) + a little: the result overflows
    return INFINITY;
  }
  if (x < -0x1.75p+9) {  // below -746: below half the smallest subnormal
    return 0.0;
  }
  double r, r_lo;
  int k = reduce_ln2(x, x_lo, &r, &r_lo);
  return scale2(1.0 + expm1_reduced(r, r_lo), k);
}

double fbMath_Exp(double x)
{
  if (isnan(x)) {
    return x;
  }
  return exp_parts(x, 0.0);
}

/*
 * e^x - 1 = 2^k (e^r - 1) + (2^k - 1): both terms exact but for the sum (2^k - 1 is exact for
 * |k| <= 53), so small and cancelling results keep their relative accuracy. Beyond: -1 for
 * x < -38 (e^x below half an ulp of 1), e^x for x > 40 (the 1 below half an ulp of e^x).
 */
double fbMath_Expm1(double x)
{
  if (isnan(x)) {
    return x;
  }
  if (fabs(x) < 0x1p-54) {  // x + x^2/2: the square below half an ulp; keeps -0
    return x;
  }
  if (x < -38.0) {
    return -1.0;
  }
  if (x > 40.0) {
    return fbMath_Exp(x);
  }
  if (fabs(x) <= 0x1.62e42fefa39efp-2) {  // ln2/2: no reduction
    return expm1_reduced(x, 0.0);
  }
  double r, r_lo;
  int k = reduce_ln2(x, 0.0, &r, &r_lo);
  return expm1_reduced(r, r_lo) * pow2(k) + (pow2(k) - 1.0);
}

// ---------------------------------------------------------------------------------------------
// the double nearest 64/j, j = 45..91
static const double LOG_RECIP[] = {
    0x1.6c16c16c16c17p+0, 0x1.642c8590b2164p+0, 0x1.5c9882b931057p+0, 0x1.5555555555555p+0,
    0x1.4e5e0a72f0539p+0, 0x1.47ae147ae147bp+0, 0x1.4141414141414p+0, 0x1.3b13b13b13b14p+0,
    0x1.3521cfb2b78c1p+0, 0x1.2f684bda12f68p+0, 0x1.29e4129e4129ep+0, 0x1.2492492492492p+0,
    0x1.1f7047dc11f70p+0, 0x1.1a7b9611a7b96p+0, 0x1.15b1e5f75270dp+0, 0x1.1111111111111p+0,
    0x1.0c9714fbcda3bp+0, 0x1.0842108421084p+0, 0x1.0410410410410p+0, 0x1.0000000000000p+0,
    0x1.f81f81f81f820p-1, 0x1.f07c1f07c1f08p-1, 0x1.e9131abf0b767p-1, 0x1.e1e1e1e1e1e1ep-1,
    0x1.dae6076b981dbp-1, 0x1.d41d41d41d41dp-1, 0x1.cd85689039b0bp-1, 0x1.c71c71c71c71cp-1,
    0x1.c0e070381c0e0p-1, 0x1.bacf914c1bad0p-1, 0x1.b4e81b4e81b4fp-1, 0x1.af286bca1af28p-1,
    0x1.a98ef606a63bep-1, 0x1.a41a41a41a41ap-1, 0x1.9ec8e951033d9p-1, 0x1.999999999999ap-1,
    0x1.948b0fcd6e9e0p-1, 0x1.8f9c18f9c18fap-1, 0x1.8acb90f6bf3aap-1, 0x1.8618618618618p-1,
    0x1.8181818181818p-1, 0x1.7d05f417d05f4p-1, 0x1.78a4c8178a4c8p-1, 0x1.745d1745d1746p-1,
    0x1.702e05c0b8170p-1, 0x1.6c16c16c16c17p-1, 0x1.6816816816817p-1,
};
// -log(LOG_RECIP[j - 45]) = HI + LO (mpmath, 300 bits)
static const double LOG_TABLE_HI[] = {
    -0x1.68ac83e9c6a15p-2, -0x1.522ae0738a3d7p-2, -0x1.3c25277333183p-2, -0x1.269621134db91p-2,
    -0x1.1178e8227e47ap-2, -0x1.f991c6cb3b37ap-3, -0x1.d1037f2655e7bp-3, -0x1.a93ed3c8ad9e5p-3,
    -0x1.823c16551a3c0p-3, -0x1.5bf406b543db0p-3, -0x1.365fcb0159014p-3, -0x1.1178e8227e47ap-3,
    -0x1.da7276384469ep-4, -0x1.9335e5d594988p-4, -0x1.4d3115d207eacp-4, -0x1.08598b59e3a06p-4,
    -0x1.894aa149fb34bp-5, -0x1.0415d89e74440p-5, -0x1.0205658935837p-6, 0x0.0p+0, 0x1.fc0a8b0fc03c4p-7,
    0x1.f829b0e7832f8p-6, 0x1.77458f632dcffp-5, 0x1.f0a30c01162a8p-5, 0x1.341d7961bd1d0p-4,
    0x1.6f0d28ae56b4ep-4, 0x1.a926d3a4ad562p-4, 0x1.e27076e2af2eap-4, 0x1.0d77e7cd08e5bp-3,
    0x1.29552f81ff521p-3, 0x1.44d2b6ccb7d1cp-3, 0x1.5ff3070a793d6p-3, 0x1.7ab890210d907p-3,
    0x1.9525a9cf456b6p-3, 0x1.af3c94e80bff3p-3, 0x1.c8ff7c79a9a20p-3, 0x1.e27076e2af2e8p-3,
    0x1.fb9186d5e3e29p-3, 0x1.0a324e27390e2p-2, 0x1.1675cababa60fp-2, 0x1.22941fbcf7966p-2,
    0x1.2e8e2bae11d31p-2, 0x1.3a64c556945eap-2, 0x1.4618bc21c5ec2p-2, 0x1.51aad872df82ep-2,
    0x1.5d1bdbf5809cap-2, 0x1.686c81e9b14adp-2,
};
static const double LOG_TABLE_LO[] = {
    0x1.acd8a9145ff44p-57, -0x1.3840b263acb43p-56, -0x1.152d81af5713ap-56, -0x1.e0efadd9db02ap-56,
    -0x1.b8ce2d07f1cb7p-56, -0x1.ecca0cdf30143p-58, 0x1.3f3adb7b71cbcp-58, -0x1.bcafa9de97202p-57,
    -0x1.6dcd318f4187ep-57, 0x1.1f5b44c0df7f7p-61, -0x1.bea08d2dca256p-57, 0x1.0e63a5f01c693p-58,
    -0x1.401fa71733017p-58, 0x1.478a85704ccb7p-58, -0x1.da7d0b1e10b2fp-60, 0x1.dd7009902bf32p-58,
    0x1.2ba0b44cfaee5p-59, -0x1.c05cf1d753621p-59, -0x1.27c8e8416e717p-60, 0x0.0p+0, -0x1.83092c5964281p-62,
    0x1.33e3f04f1ef25p-60, 0x1.8d3ca87b92968p-63, 0x1.85f325c5bbacdp-59, -0x1.3599f227becbbp-58,
    -0x1.20db323097324p-59, -0x1.d7a16eab1e2adp-59, -0x1.61578001e015ap-60, 0x1.9a5dc5e9030adp-57,
    0x1.301771c407dc0p-57, 0x1.7d3d950f87e23p-59, -0x1.bc60efafc6f6cp-58, -0x1.1072534a57e7dp-57,
    -0x1.26fb3e2b1d1dap-57, 0x1.a3398064df33ep-57, -0x1.4f689f8434011p-57, -0x1.61578001e015ep-59,
    0x1.355519b0de535p-57, 0x1.bdcfde8061c03p-56, 0x1.ce63eab883727p-61, -0x1.dbd7ac258a2bdp-58,
    -0x1.1e99b72bd7bf2p-57, 0x1.cbcd735d03424p-60, -0x1.7a42642661c62p-61, -0x1.d8db0a7cc1543p-56,
    -0x1.7dc9c7c23801fp-56, 0x1.710af840538e3p-56,
};
// (-1)^(n+1) / n, n = 3..12: log(1 + f) = f - f^2/2 + f^3 (LOG1P_C[0] + f LOG1P_C[1] + ...)
static const double LOG1P_C[] = {
    0x1.5555555555555p-2, -0x1.0000000000000p-2, 0x1.999999999999ap-3, -0x1.5555555555555p-3,
    0x1.2492492492492p-3, -0x1.0000000000000p-3, 0x1.c71c71c71c71cp-4, -0x1.999999999999ap-4,
    0x1.745d1745d1746p-4, -0x1.5555555555555p-4,
};

/*
 * log x for finite x > 0, as hi + lo, within about 2^-70 of log x (for log2, log10 and pow,
 * whose error is |y log x| times that of the log). After the method of Tang ("Table-driven
 * implementation of the logarithm function in IEEE floating-point arithmetic", ACM TOMS 16,
 * 1990): x = 2^e m with m in [sqrt(1/2), sqrt 2) (from the bits: exact); j = the nearest
 * integer to 64 m, c = 64/j rounded (a table), so that m c = 1 + f with |f| <= 1/90;
 *   log x = e ln2 - log c + log(1 + f).
 * m c is exact as p + p_err (two_prod) and p - 1 is exact (Sterbenz), so f is known in two
 * parts; log(1 + f) = f - f^2/2 + f^3/3 - ... needs 12 terms for 2^-62, f - f^2/2 is formed in
 * two parts and the rest, below 2^-20, rounds at 2^-73. ln2 (42 + 53 bits) and -log c (53 +
 * 53 bits) are summed in two parts. Near x = 1, j = 64 and c = 1: log x = log(1 + f) with f
 * exact, so small logarithms keep their relative accuracy.
 */
static void log_parts(double x, double *hi, double *lo)
{
  int e = 0;
  if (x < 0x1p-1022) {  // subnormal: make it normal first
    x *= 0x1p54;
    e = -54;
  }
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  e += (int)((bits >> 52) & 0x7ff) - 1023;
  bits = (bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;
  double m;
  memcpy(&m, &bits, sizeof m);
  if (m > 0x1.6a09e667f3bcdp+0) {  // sqrt 2
    m *= 0.5;
    e += 1;
  }
  int j = (int)(m * 64.0 + 0.5) - 45;
  double p, p_err, f, f_lo;
  two_prod(m, LOG_RECIP[j], &p, &p_err);
  two_sum(p - 1.0, p_err, &f, &f_lo);
  double sq, sq_err;
  two_prod(f, f, &sq, &sq_err);
  double t, t_err;
  two_sum(f, -0.5 * sq, &t, &t_err);
  t_err += f_lo * (1.0 - f) - 0.5 * sq_err + f * sq * horner(LOG1P_C, COUNT(LOG1P_C), f);
  double a, a_err, b, b_err;
  two_sum(e * LN2_HI, LOG_TABLE_HI[j], &a, &a_err);
  two_sum(a, t, &b, &b_err);
  two_sum(b, b_err + (a_err + (t_err + (e * LN2_LO + LOG_TABLE_LO[j]))), hi, lo);
}

// The special values of log, log2 and log10; true if *out holds the answer.
static int log_special(double x, double *out)
{
  if (isnan(x) || x == INFINITY) {
    *out = x;
  } else if (x == 0.0) {
    *out = -INFINITY;
  } else if (x < 0.0) {
    *out = QNAN;
  } else {
    return 0;
  }
  return 1;
}

double fbMath_Log(double x)
{
  double out, hi, lo;
  if (log_special(x, &out)) {
    return out;
  }
  log_parts(x, &hi, &lo);
  return hi;
}

// log x times a constant c = c_hi + c_lo, the product rounded once: log2 and log10 of exact
// powers of 2 and 10 come out exact.
static double log_times(double x, double c_hi, double c_lo)
{
  double out, hi, lo, p, p_err;
  if (log_special(x, &out)) {
    return out;
  }
  log_parts(x, &hi, &lo);
  two_prod(hi, c_hi, &p, &p_err);
  return p + (p_err + (hi * c_lo + lo * c_hi));
}

double fbMath_Log2(double x)
{
  return log_times(x, INV_LN2_HI, INV_LN2_LO);
}

double fbMath_Log10(double x)
{
  return log_times(x, INV_LN10_HI, INV_LN10_LO);
}

// ---------------------------------------------------------------------------------------------
/*
 * pow(x, y) = e^(y log x), with log x in two parts (log_parts) and y log x in two parts
 * (two_prod), so the error of the product is about |y log x| 2^-57 (relative error of the
 * result): within an ulp while |y log x| < 16, a few ulps at the edge of overflow
 * (docs/reliability.md has the measurements). A negative x is allowed with an integer y, the
 * sign from y's parity. Special values as C99 Annex F (F.9.4.4), in the order written there.
 */
static int is_integer(double y)
{
  return floor(y) == y;
}

static int is_odd_integer(double y)  // y an integer
{
  return fabs(y) < 0x1p53 && fmod(y, 2.0) != 0.0;
}

static int pow_special(double x, double y, double *out)
{
  int y_odd = isfinite(y) && is_integer(y) && is_odd_integer(y);
  if (y == 0.0 || x == 1.0) {
    *out = 1.0;
  } else if (isnan(x) || isnan(y)) {
    *out = isnan(x) ? x : y;
  } else if (x == 0.0) {
    *out = y < 0.0 ? (y_odd ? copysign(INFINITY, x) : INFINITY) : (y_odd ? x : 0.0);
  } else if (isinf(y)) {
    double ax = fabs(x);
    *out = ax == 1.0 ? 1.0 : ((ax < 1.0) == (y < 0.0) ? INFINITY : 0.0);
  } else if (isinf(x)) {
    double magnitude = y > 0.0 ? INFINITY : 0.0;
    *out = (x < 0.0 && y_odd) ? -magnitude : magnitude;
  } else if (x < 0.0 && !is_integer(y)) {
    *out = QNAN;
  } else {
    return 0;
  }
  return 1;
}

double fbMath_Pow(double x, double y)
{
  double out;
  if (pow_special(x, y, &out)) {
    return out;
  }
  double sign = (x < 0.0 && is_odd_integer(y)) ? -1.0 : 1.0;
  double hi, lo;
  log_parts(fabs(x), &hi, &lo);
  double estimate = y * hi;
  if (estimate > 710.0 || estimate < -746.0 || isnan(estimate)) {  // surely beyond the range
    return sign * (estimate > 0.0 ? INFINITY : 0.0);
  }
  double p, p_err;
  two_prod(y, hi, &p, &p_err);
  return sign * exp_parts(p, p_err + y * lo);
}

// ---------------------------------------------------------------------------------------------
/*
 * hypot(x, y) = sqrt(x^2 + y^2) without overflow or underflow in between: large values are
 * scaled by 2^-600 and tiny ones by 2^600 (exact), the sum of squares is formed in two parts
 * (two_prod, two_sum), and one Newton step h + (s - h^2) / (2h) on the rounded square root
 * (h^2 exact by two_prod) brings the result to within about half an ulp. Annex F: an infinite
 * argument gives +inf even with a NaN beside it; hypot(x, +-0) = |x|.
 */
double fbMath_Hypot(double x, double y)
{
  if (isinf(x) || isinf(y)) {
    return INFINITY;
  }
  if (isnan(x) || isnan(y)) {
    return isnan(x) ? x : y;
  }
  double a = fabs(x), b = fabs(y);
  if (a < b) {
    double t = a;
    a = b;
    b = t;
  }
  if (b == 0.0 || b < a * 0x1p-60) {  // b^2 below half an ulp of a^2
    return a + b;
  }
  double scale = 1.0, unscale = 1.0;
  if (a > 0x1p500) {
    scale = 0x1p-600, unscale = 0x1p600;
  } else if (b < 0x1p-500) {
    scale = 0x1p600, unscale = 0x1p-600;
  }
  a *= scale;
  b *= scale;
  double a2, a2_err, b2, b2_err, s, s_err, h2, h2_err;
  two_prod(a, a, &a2, &a2_err);
  two_prod(b, b, &b2, &b2_err);
  two_sum(a2, b2, &s, &s_err);
  s_err += a2_err + b2_err;
  double h = sqrt(s);
  two_prod(h, h, &h2, &h2_err);
  h += ((s - h2) - h2_err + s_err) / (2.0 * h);
  return h * unscale;
}

// ---------------------------------------------------------------------------------------------
/*
 * The hyperbolic functions (Lua's compatibility math.sinh, cosh, tanh).
 * - sinh: on |x| < 1 its Taylor series, which is sin's with z -> -z (sinh x = -i sin(ix)):
 *   x - x z S(-z) with S sin's polynomial; beyond, from E = e^|x| - 1 (e^x = E + 1,
 *   e^-x = 1 / (E + 1)): sinh = (E + E / (E + 1)) / 2.
 * - cosh: 1 + E^2 / (2 (E + 1)) for |x| < ln2/2, (e^x + e^-x) / 2 up to 22.
 * - tanh: on |x| < 0.55 its Taylor series (coefficients 2^2n (2^2n - 1) B_2n / (2n)!,
 *   Abramowitz and Stegun 4.5.64; radius pi/2, 19 terms for 2^-57), beyond
 *   1 - 2 / (E2 + 2) with E2 = e^(2|x|) - 1.
 * Past 22, e^-x no longer counts: sinh = cosh = e^x / 2, computed as (e^(x/2) / 2) e^(x/2)
 * where e^x alone would overflow; tanh = 1.
 */
static const double TANH_C[] = {
    -0x1.5555555555555p-2, 0x1.1111111111111p-3, -0x1.ba1ba1ba1ba1cp-5, 0x1.664f4882c10fap-6,
    -0x1.226e355e6c23dp-7, 0x1.d6d3d0e157de0p-9, -0x1.7da36452b75e3p-10, 0x1.3558248036744p-11,
    -0x1.f57d7734d1664p-13, 0x1.967e18afcafadp-14, -0x1.497d8eea25259p-15, 0x1.0b132d39a6050p-16,
    -0x1.b0f72d3ee24e9p-18, 0x1.5ef2da474e5b7p-19, -0x1.1c77df95c1c0dp-20, 0x1.cd299de4ae6bbp-22,
    -0x1.75cde6563fed9p-23, 0x1.2efe8db3aff1fp-24, -0x1.eb3229047434cp-26,
};

static double half_exp_large(double a)  // e^a / 2 for a > 22, without overflowing early
{
  if (a < 709.0) {
    return 0.5 * fbMath_Exp(a);
  }
  double t = fbMath_Exp(0.5 * a);
  return (0.5 * t) * t;
}

double fbMath_Sinh(double x)
{
  double a = fabs(x);
  if (isnan(x) || isinf(x) || a < 0x1p-27) {
    return x;
  }
  if (a < 1.0) {
    double z = x * x;
    return x - x * z * horner(SIN_C, COUNT(SIN_C), -z);
  }
  if (a > 22.0) {
    return copysign(half_exp_large(a), x);
  }
  double e = fbMath_Expm1(a);
  return copysign(0.5 * (e + e / (e + 1.0)), x);
}

double fbMath_Cosh(double x)
{
  double a = fabs(x);
  if (isnan(x)) {
    return x;
  }
  if (a > 22.0) {
    return half_exp_large(a);
  }
  if (a < 0x1.62e42fefa39efp-2) {
    double e = fbMath_Expm1(a);
    return 1.0 + (e * e) / (2.0 * (e + 1.0));
  }
  double t = fbMath_Exp(a);
  return 0.5 * t + 0.5 / t;
}

double fbMath_Tanh(double x)
{
  double a = fabs(x);
  if (isnan(x) || a < 0x1p-27) {
    return x;
  }
  if (a < 0.55) {
    double z = x * x;
    return x + x * z * horner(TANH_C, COUNT(TANH_C), z);
  }
  if (a > 22.0) {  // 1 - tanh below 2^-63
    return copysign(1.0, x);
  }
  double e = fbMath_Expm1(2.0 * a);
  return copysign(1.0 - 2.0 / (e + 2.0), x);
}
