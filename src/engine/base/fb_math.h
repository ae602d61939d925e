// fb_math.h — elementary functions that give the same bits on every platform (glibc, musl, emscripten).
#ifndef FB_MATH_H
#define FB_MATH_H

/*
 * The C library's sin, exp, pow ... are not specified to the last bit: glibc and musl (the libc
 * of the WebAssembly build) round differently in the last place, and a run of flockbox that uses
 * them gives another hash in the page than on the desktop. These are written with + - * / and
 * sqrt only (exactly rounded by IEEE 754) and floor, fabs, fmod (exact), in a file compiled
 * without contraction into fused multiply-adds, so they give the same bits wherever double is
 * IEEE binary64 with round-to-nearest. Accuracy, measured against glibc over 10^6 arguments per
 * function: docs/reliability.md, "Same bits in the page and on the desktop". Special values
 * (NaN, infinities, signed zeros, domain errors) as C99 Annex F says; a domain error returns a
 * positive quiet NaN, and errno is never set.
 */

double fbMath_Sin(double x);
double fbMath_Cos(double x);
void fbMath_SinCos(double x, double *sin_x, double *cos_x);  // both from one argument reduction
double fbMath_Tan(double x);
double fbMath_Asin(double x);
double fbMath_Acos(double x);
double fbMath_Atan(double x);
double fbMath_Atan2(double y, double x);
double fbMath_Exp(double x);
double fbMath_Expm1(double x);
double fbMath_Log(double x);
double fbMath_Log2(double x);
double fbMath_Log10(double x);
double fbMath_Pow(double x, double y);
double fbMath_Hypot(double x, double y);
double fbMath_Sinh(double x);
double fbMath_Cosh(double x);
double fbMath_Tanh(double x);

#endif
